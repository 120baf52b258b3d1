"""Argument checks put in front of public methods (the game contract's and the action
spaces'): a value of the wrong type is the library's one-line error, never a Python
traceback from deep inside a rule."""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["is_guarded", "with_check"]

#: Checks the arguments of one call (the object, positional arguments, keywords) and
#: gives them back, possibly as the method should read them (a stand-in replaced).
Check = Callable[
    [object, tuple[object, ...], dict[str, object]],
    tuple[tuple[object, ...], dict[str, object]],
]


def with_check(name: str, method: Callable[..., object], check: Check) -> Callable[..., object]:
    """``method`` (a function defined on a class, named ``name``) with ``check`` run
    on its arguments before it (and given what ``check`` gives back); the wrapper
    keeps the method's name and docs."""

    def guarded(self: object, *args: object, **kw: object) -> object:
        args, kw = check(self, args, kw)
        return method(self, *args, **kw)

    guarded.__name__ = name
    guarded.__qualname__ = getattr(method, "__qualname__", name)
    guarded.__doc__ = method.__doc__
    guarded.__wrapped__ = method  # type: ignore[attr-defined]
    guarded.__module__ = method.__module__
    guarded._byzantium_guarded = True  # type: ignore[attr-defined]
    return guarded


def is_guarded(method: object) -> bool:
    """Whether ``method`` already has its checks in front."""
    return bool(getattr(method, "_byzantium_guarded", False))
