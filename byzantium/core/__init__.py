"""The game-agnostic kernel: the game contract, chance, rules, records and drivers.

Nothing in this package knows about a particular game; the games plug into it.
"""
