pytest_plugins = ["tests.emulator.fixtures"]
