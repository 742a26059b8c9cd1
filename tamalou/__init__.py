"""The games of the house, pure Python: no Discord, no I/O, no clock, no global random.

``tamalou.core`` holds what every game shares (decks, chance, events with their audience,
the game protocol); ``tamalou.games`` holds one package per game and the registry that maps
a game id to it (``tamalou.games.load("tamalou")``).
"""
