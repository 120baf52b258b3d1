"""Finding games by id.

The built-in games register themselves when their package is imported; their
packages are imported on demand, so ``import byzantium`` stays cheap. Third-party
or test games call :func:`register_game` with their :class:`~byzantium.core.game.Game`
subclass.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload

from byzantium.core.errors import ArgumentError, UnknownGameError
from byzantium.core.game import Game

if TYPE_CHECKING:
    from byzantium.belisarius.game import Belisarius
    from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy

__all__ = ["BUILTIN_GAME_PACKAGES", "available_games", "game_class", "load_game", "register_game"]

# The registry holds games of every state and action type; ``Any`` stays internal:
# callers get ``Game[object, object]``, or the concrete class of a built-in game
# (the overloads of game_class and load_game).
_AnyGame = Game[Any, Any]
G = TypeVar("G", bound=type[_AnyGame])

#: Game id -> package that registers it when imported.
BUILTIN_GAME_PACKAGES: dict[str, str] = {
    "sword-of-orthodoxy": "byzantium.sword_of_orthodoxy.game",
    "belisarius": "byzantium.belisarius.game",
}

_GAMES: dict[str, type[_AnyGame]] = {}


def register_game(cls: G) -> G:
    """Class decorator: make a game loadable by its ``ID``."""
    if not (isinstance(cls, type) and issubclass(cls, Game)) or not isinstance(
        getattr(cls, "ID", None), str
    ):
        raise ArgumentError(f"register_game takes a Game class with an ID, not {repr(cls)[:60]}")
    existing = _GAMES.get(cls.ID)
    if existing is not None and existing is not cls:
        raise ArgumentError(f"a game with id {cls.ID!r} is already registered: {existing!r}")
    _GAMES[cls.ID] = cls
    return cls


def _import_builtin(name: str) -> None:
    module = BUILTIN_GAME_PACKAGES.get(name)
    if module is None or name in _GAMES:
        return
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # A game whose package is not written yet simply is not available.
        if exc.name is None or not module.startswith(exc.name):
            raise


def available_games() -> list[str]:
    """Ids of every game that can be loaded now."""
    for name in BUILTIN_GAME_PACKAGES:
        _import_builtin(name)
    return sorted(_GAMES)


@overload
def game_class(name: Literal["sword-of-orthodoxy"]) -> type[SwordOfOrthodoxy]: ...
@overload
def game_class(name: Literal["belisarius"]) -> type[Belisarius]: ...
@overload
def game_class(name: str) -> type[Game[object, object]]: ...
def game_class(name: str) -> type[_AnyGame]:
    """The game class registered under ``name`` (the concrete class, to a type
    checker, for a built-in game's id written out)."""
    if not isinstance(name, str):
        raise UnknownGameError(f"a game id is a string, not {repr(name)[:60]}")
    _import_builtin(name)
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(available_games()) or "none"
        raise UnknownGameError(f"unknown game {name!r}; available games: {known}") from None


@overload
def load_game(name: Literal["sword-of-orthodoxy"], **options: object) -> SwordOfOrthodoxy: ...
@overload
def load_game(name: Literal["belisarius"], **options: object) -> Belisarius: ...
@overload
def load_game(name: str, **options: object) -> Game[object, object]: ...
def load_game(name: str, **options: object) -> _AnyGame:
    """A game by id, with its options set (unknown options raise and list the valid ones).

    To a type checker, ``load_game("sword-of-orthodoxy")`` and ``load_game("belisarius")``
    are of their concrete classes (:class:`~byzantium.sword_of_orthodoxy.game.SwordOfOrthodoxy`,
    :class:`~byzantium.belisarius.game.Belisarius`), with typed states, actions and
    observations; any other id gives a ``Game[object, object]``.

    >>> load_game("chess")
    Traceback (most recent call last):
      ...
    byzantium.core.errors.UnknownGameError: unknown game 'chess'; available games: ...
    """
    return game_class(name)(options)
