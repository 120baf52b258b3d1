"""Belisarius: the two-player game of Justinian's wars of reconquest.

The rule index (``rules.toml``) lists every numbered rule of the rulebook; the rules
engine is being built chapter by chapter against it (``byzantium trace belisarius``
shows what is done).
"""

from byzantium.core.rules import RuleBook, register_rulebook

#: The rule book: the index of every numbered rule and the code registered for it.
RULES = register_rulebook(RuleBook.from_package(__name__))
