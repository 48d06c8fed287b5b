#!/usr/bin/env python3
"""Run warpfix over real legacy CUDA code bases, as a user would, and count.

For each project of projects.json (checked out by prepare.py under --corpus):

  1. check pass: warpfix --format=json --stats=csv --no-cache -j N
                 <source folders> -- -I... -D... --cuda-gpu-arch=...
     (no compilation database: folders plus flags, as a new user types them);
  2. when that run crashes, times out or prints garbage, every translation
     unit is run again alone, to attribute the crash and to keep the
     findings of the others;
  3. fix pass: the same with --fix on a scratch copy of the project (the
     crashing units left out), to count the fixes actually written;
  4. a grep of the sources for legacy call sites (__shfl, __shfl_up/down/xor,
     __ballot, __any, __all followed by '(' outside comments and strings)
     and for inline PTX shfl./vote. without .sync, matched by file and line
     against the findings.

It prints one row per project and the totals, and --json FILE writes the
same with the details (per-file statuses, error classes, crash stacks,
unfixable reasons).  Every failure of warpfix is a counted result, never a
traceback.  Standard library only.  See README.md next to it.
"""
# The sweep itself is the package sweeping/ beside this file, one module per
# phase (README.md, Files); this is its entry point, and the docstring above
# is its --help text.
import sys

from sweeping.cli import main
# Kept reachable as sweep.NAME for scripts that import this file, and for
# CHECKS_SHORT, where CONTRIBUTING.md and scripts/new-check.py send a new
# check's author (it lives in sweeping/report.py).
from sweeping.inputs import project_args, source_paths, tus_of
from sweeping.report import CHECKS_SHORT

__all__ = ["main", "project_args", "source_paths", "tus_of", "CHECKS_SHORT"]

if __name__ == "__main__":
    sys.exit(main(__doc__))
