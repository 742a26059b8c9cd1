"""The Discord adapter for every game (Tamalou, Kalooki, tarot): the platform (``bot/ui``,
``bot/tables``, ``bot/storage``, ``bot/seasons``) and one plugin a game (``bot/games``):
commands, buttons, rendering, storage, timers."""
