"""The tests' name for :mod:`devkit.backends` (the same module: moved out of the test tree so
that tools/ import no tests)."""

import sys

import devkit.backends

sys.modules[__name__] = devkit.backends
