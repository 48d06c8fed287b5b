#!/usr/bin/env python3
"""warpfix benchmark: generates a mixed CUDA code base and times warpfix
against a plain clang parse and a one-check clang-tidy on the same files with
the same flags. See bench/README.md.

Targets are printed and compared, never asserted: the exit status is 0 unless
a tool failed to run (a crash, an exit status other than 0 for clang and
clang-tidy, or 2 for warpfix). Warpfix runs that disagree on the findings
are flagged loudly in the output and the JSON.
"""

# The benchmark itself is the package benchmarking/ beside this file, one
# module per phase (README.md); this is its entry point, and the docstring
# above is its --help text.
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmarking.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(__doc__))
