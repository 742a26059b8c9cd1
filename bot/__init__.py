"""The Discord adapter for every game (Tamalou, Kalooki, tarot): the platform (``bot/ui``,
``bot/tables``, ``bot/storage``, ``bot/seasons``) and one plugin a game (``bot/games``):
commands, buttons, rendering, storage, timers."""

#: the cycle collector's thresholds from start-up on (set by ``python -m bot`` before it
#: reads the database; ``GameBot.setup_hook`` freezes what start-up built, then keeps them).
#: A young collection every 100,000 objects: at the default 700, start-up's imports and
#: 1,000 tables rebuilt ran hundreds of collections, the full ones over every module and
#: table already built (restart of 1,000 live tables).
GC_THRESHOLDS = (100_000, 20, 50)
