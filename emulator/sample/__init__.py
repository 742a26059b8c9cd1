"""Sample bot used only by tests/test_emulator.py to exercise the Discord emulator."""
