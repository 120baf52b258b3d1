"""Sword of Orthodoxy: the solitaire game of Byzantium's rise and fall, 421-1453.

The rule index (``rules.toml``) lists every numbered rule of the rulebook; the rules
engine is being built chapter by chapter against it (``byzantium trace
sword-of-orthodoxy`` shows what is done).
"""

from byzantium.core.rules import RuleBook, register_rulebook

#: The rule book: the index of every numbered rule and the code registered for it.
RULES = register_rulebook(RuleBook.from_package(__name__))
