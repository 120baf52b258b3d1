"""Component packs: an owner's component files, shared as a folder or as an installed
package.

A pack is named where a game takes its ``components`` option (``load_game(...,
components=...)``, ``--option components=...``, ``--components``): either the path of
a directory holding the component files, or the name under which an installed
package registers itself in the entry point group :data:`PACK_GROUP`::

    [project.entry-points."byzantium.components"]
    our-belisarius = "our_belisarius"

The entry point names a package (a module path, no ``:attribute``) whose own
directory holds the component files. The package is located, never imported: naming
a pack runs none of its code.
"""

from __future__ import annotations

import importlib.util
from importlib.metadata import entry_points
from pathlib import Path

import attrs

from byzantium.core.errors import UnknownOptionError

__all__ = ["PACK_GROUP", "Pack", "find_pack", "installed_packs"]

#: The entry point group in which an installed package registers its component files.
PACK_GROUP = "byzantium.components"


@attrs.frozen
class Pack:
    """A component pack: its ``name`` (as given, or the installed package's entry point)
    and the ``directory`` that holds its files."""

    name: str
    directory: Path


def installed_packs() -> dict[str, str]:
    """The installed packs: entry point name -> the package that holds the files."""
    return {point.name: point.value for point in entry_points(group=PACK_GROUP)}


def _package_directory(name: str, module: str) -> Path:
    if ":" in module or not all(part.isidentifier() for part in module.split(".")):
        raise UnknownOptionError(
            f"component pack {name!r}: its entry point must name a package, not {module!r}"
        )
    head, _, rest = module.partition(".")
    try:
        # Only the top package is looked up: its directories, without importing it.
        top = importlib.util.find_spec(head)
    except (ImportError, ValueError):
        top = None
    for root in list(top.submodule_search_locations or []) if top else []:
        candidate = Path(root).joinpath(*rest.split(".")) if rest else Path(root)
        if candidate.is_dir():
            return candidate
    raise UnknownOptionError(
        f"component pack {name!r}: package {module!r} is not installed as a directory"
    )


def find_pack(spec: str) -> Pack:
    """The pack named by ``spec``: a directory path, else an installed pack's name.

    An existing directory wins over an installed pack of the same name; a name that is
    neither is refused with one line listing the installed packs.
    """
    path = Path(spec)
    if path.is_dir():
        return Pack(spec, path)
    packs = installed_packs()
    if spec in packs:
        return Pack(spec, _package_directory(spec, packs[spec]))
    known = ", ".join(sorted(packs)) or "none"
    raise UnknownOptionError(
        f"components {spec!r}: no such directory or installed component pack"
        f" (installed packs: {known})"
    )
