"""The bound on every number of the Belisarius component files.

The files give hex numbers, Forage and Solidus values, Victory Points, unit factors,
table rows and limits. The largest of them all is a hex number (``XXYY``, four digits),
so no number of a file may be further from zero than :data:`MAX_COMPONENT_NUMBER`: a
user's file with a Forage of 2**63 - 1 or a treasury of 10**30 is refused when read,
with the file and key named, before the engine works with it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from byzantium.core.provenance import ComponentError

__all__ = ["MAX_COMPONENT_NUMBER", "check_numbers"]

#: The largest size of any number in a component file: a hex number XXYY.
MAX_COMPONENT_NUMBER = 9999


def check_numbers(
    data: Mapping[str, object], file: str, error: type[ComponentError] = ComponentError
) -> None:
    """Raise ``error`` naming the key of the first number of a file's tables (read from
    TOML) that is not finite or lies beyond :data:`MAX_COMPONENT_NUMBER` either way."""
    todo: list[tuple[str, object]] = [(str(key), value) for key, value in data.items()]
    while todo:
        key, value = todo.pop()
        if isinstance(value, Mapping):
            todo.extend((f"{key}.{name}", item) for name, item in value.items())
        elif isinstance(value, list):
            todo.extend((f"{key}[{i}]", item) for i, item in enumerate(value))
        elif (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and not (math.isfinite(value) and abs(value) <= MAX_COMPONENT_NUMBER)
        ):
            shown = str(value)[:24]
            raise error(file, key, f"{shown} is beyond the bound of {MAX_COMPONENT_NUMBER}")
