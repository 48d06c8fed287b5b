#!/usr/bin/env python3
"""warpfix runtime tests: show on a GPU that every rewrite keeps behaviour and removes races.

Two phases, so that the GPU machine needs nothing but python3, compute-sanitizer
and the folder the first phase writes:

  prepare   (nvcc and warpfix, no GPU; runs in CI)
            For each case: run warpfix on the original and compare its findings
            with the case's expect.json; rewrite a copy with warpfix --fix; build
            the rewritten program (sm_75 check, sm_90 binary), the original under
            legacy_emulation.cuh (sm_90 binary), and check that the original
            does not build without that header. Writes the output folder:
            binaries, sources, manifest.json, and a copy of this script with
            its package (runtime/).

  run       (GPU machine, given that folder)
            Runs both programs over the case's launch shapes and seeds against
            the CPU reference; runs racecheck, synccheck and memcheck on the
            rewritten program and racecheck on the original; then times the
            original against the rewritten program and against itself at a
            size where a launch takes at least 1 ms (--timing-only and
            --no-timing pick one phase). Writes results.json and RESULTS.md
            into the folder.

  report    merges the results.json of a --no-timing run and of a
            --timing-only run into RESULTS.md; timing-table prints the timing
            of a results.json (what scripts/bench.sh shows).

  python3 runtime-tests/run.py prepare            # here or in CI
  python3 out/run.py run out                       # on the GPU machine
"""

import argparse
import os
import shutil
import sys
from pathlib import Path

# The package sits beside this script, here and in the folder prepare writes
# (out/run.py runs from there on the GPU machine): import it from this
# script's own folder, whatever the working directory. No __pycache__ is
# written beside it: a run leaves in the prepared folder only what it writes.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True

from runtime.common import HERE  # noqa: E402
from runtime.execute import FULL, QUICK, command_run  # noqa: E402
from runtime.prepare import command_prepare  # noqa: E402
from runtime.report import command_report  # noqa: E402
from runtime.timing import command_timing_table  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__,
        epilog='prepare needs nvcc and warpfix (no GPU); run needs the prepared folder, a GPU '
               'and compute-sanitizer. See runtime-tests/README.md.',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest='command', required=True)

    p = sub.add_parser('prepare', help='analyse, rewrite and build every case (no GPU)')
    p.add_argument('--warpfix', default=str(HERE.parent / 'build' / 'bin' / 'warpfix'),
                   help='the warpfix binary (default: %(default)s)')
    p.add_argument('--nvcc', default=shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc',
                   help='nvcc (default: %(default)s)')
    p.add_argument('--out', default=str(HERE / 'out'),
                   help='output folder, emptied first (default: %(default)s)')
    p.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 2,
                   help='cases prepared at once (default: %(default)s)')
    p.add_argument('--update-expectations', action='store_true',
                   help="rewrite each case's expect.json from warpfix's current findings")
    p.add_argument('--case', action='append', metavar='GLOB',
                   help='only the cases matching GLOB (repeatable)')
    p.set_defaults(func=command_prepare)

    r = sub.add_parser('run', help='run the prepared folder on a GPU')
    r.add_argument('folder', nargs='?',
                   help='the folder prepare wrote (default: the folder holding this script)')
    r.add_argument('--quick', action='store_true',
                   help=f"{QUICK['shapes']} shapes, seed 1, {QUICK['launches']} launches per run, "
                        f"{QUICK['time_rounds']} timed launches per program (full: all shapes, "
                        f"seeds {', '.join(map(str, FULL['seeds']))}, {FULL['launches']} "
                        f"launches, {FULL['time_rounds']} timed)")
    phase = r.add_mutually_exclusive_group()
    phase.add_argument('--timing-only', action='store_true',
                       help='only the timing phase, not the checks and sanitizers')
    phase.add_argument('--no-timing', action='store_true',
                       help='only the checks and sanitizers, not the timing phase')
    r.add_argument('--time-budget', type=float, metavar='SECONDS',
                   help='start timing no further case after this many seconds of timing; '
                        'the cases left are listed (time them with --case, merge with report)')
    r.add_argument('-j', '--jobs', type=int, default=min(8, os.cpu_count() or 1),
                   help='programs run at once, timing runs excepted (default: %(default)s)')
    r.add_argument('--sanitizer', help='compute-sanitizer (default: PATH, then /usr/local/cuda)')
    r.add_argument('--case', action='append', metavar='GLOB',
                   help='only the cases matching GLOB (repeatable)')
    r.set_defaults(func=command_run)

    m = sub.add_parser('report', help='rewrite RESULTS.md from a results.json, optionally '
                                      "taking the timing from another run's results.json")
    m.add_argument('results', help='results.json of a run')
    m.add_argument('--timing', metavar='RESULTS_JSON', action='append',
                   help='take the timing section from this results.json (a --timing-only '
                        'run); repeatable, for runs that timed different cases')
    m.add_argument('--out', default=str(HERE),
                   help='where results.json and RESULTS.md go (default: %(default)s)')
    m.set_defaults(func=command_report)

    t = sub.add_parser('timing-table', help="print a results.json's timing as a table and "
                                            'as JSON (what scripts/bench.sh shows)')
    t.add_argument('results', nargs='?', default=str(HERE / 'results.json'),
                   help='results.json (default: %(default)s)')
    t.add_argument('--measured-here', action='store_true',
                   help='say that the timing was measured on this machine (bench.sh ran it)')
    t.set_defaults(func=command_timing_table)

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == '__main__':
    sys.exit(main())
