"""byzantium: typed, headless rules engines for two board games about Byzantium.

The public kernel API is re-exported here::

    import byzantium
    game = byzantium.load_game("sword-of-orthodoxy")
    record = byzantium.play(game, seed=1)
    final = byzantium.replay(game, record)
"""

from byzantium.core.dice import Comparison, Modifier, Roll, d6, d66, dice, two_d6
from byzantium.core.drivers import (
    Policy,
    ScriptExhaustedError,
    first_action_policy,
    play,
    playout,
    random_policy,
    sample,
    scripted,
)
from byzantium.core.errors import (
    ByzantiumError,
    IllegalActionError,
    RecordError,
    RuleIndexError,
    UnknownGameError,
    UnknownOptionError,
)
from byzantium.core.game import CHANCE, TERMINAL, Datum, Event, Game, OptionSpec, Result, Step
from byzantium.core.records import GameRecord, dumps_record, loads_record, replay
from byzantium.core.registry import available_games, load_game, register_game
from byzantium.core.rules import RuleBook, RuleEntry, RuleStatus, get_rulebook
from byzantium.core.simulate import SimulationSummary, simulate

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "ByzantiumError",
    "Comparison",
    "Datum",
    "Event",
    "Game",
    "GameRecord",
    "IllegalActionError",
    "Modifier",
    "OptionSpec",
    "Policy",
    "RecordError",
    "Result",
    "Roll",
    "RuleBook",
    "RuleEntry",
    "RuleIndexError",
    "RuleStatus",
    "ScriptExhaustedError",
    "SimulationSummary",
    "Step",
    "UnknownGameError",
    "UnknownOptionError",
    "__version__",
    "available_games",
    "d6",
    "d66",
    "dice",
    "dumps_record",
    "first_action_policy",
    "get_rulebook",
    "load_game",
    "loads_record",
    "play",
    "playout",
    "random_policy",
    "register_game",
    "replay",
    "sample",
    "scripted",
    "simulate",
    "two_d6",
]
