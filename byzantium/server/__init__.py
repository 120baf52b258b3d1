"""``byzantium serve``: a game server for both games (the ``server`` extra).

The rules run here, in the library; a client reads its seat's view and sends back
actions. :mod:`byzantium.server.store` keeps the games.
"""
