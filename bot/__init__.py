"""The Discord adapter for Tamalou: commands, buttons, rendering, storage, timers."""
