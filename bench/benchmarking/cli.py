"""The command line of run.py and the benchmark's order of work: the options,
the binary copied and the baselines found, the scaling runs, then the code
base generated, timed, its findings compared and its ratios computed, and
the report printed and --json written.  Exit status 0 unless a tool failed
to run (1), or the binary or a baseline is missing (sys.exit's message).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

from .binary import snapshot, warpfix_flags
from .codebase import prepare
from .findings import compare_runs
from .measuring import log
from .ratios import ratio_rows
from .report import json_result, print_report, print_scaling
from .scaling import run_scaling
from .timing import time_runs

# the repository this file is in
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(description=None):
    """description: the help's text, run.py's docstring."""
    ap = argparse.ArgumentParser(description=description,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--warpfix", default=os.path.join(REPO, "build", "bin",
                                                      "warpfix"),
                    help="warpfix binary (default: build/bin/warpfix of this repo)")
    ap.add_argument("--clang", default="clang++-19")
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH")
                    or os.environ.get("CUDA_HOME") or "/usr/local/cuda")
    ap.add_argument("--out", default=os.path.join(REPO, "bench", "out"),
                    help="where the code base and scratch files go "
                         "(default: bench/out, ignored by git)")
    ap.add_argument("--tus", type=int, default=120,
                    help="translation units to generate (default 120)")
    ap.add_argument("--quick", action="store_true",
                    help="10 TUs, for a sanity check of the whole pipeline")
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--sizes", default="250,1000,4000",
                    help="kernels per file of the scaling runs, comma-separated "
                         "(default 250,1000,4000; empty to skip them)")
    ap.add_argument("--reps", type=int, default=3,
                    help="runs of each scaling measurement (default 3)")
    ap.add_argument("--scaling-only", action="store_true",
                    help="only the scaling runs, not the code base")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of one clang parse and "
                         "one warpfix run of each scaling file with valgrind's "
                         "callgrind (minutes; needs valgrind)")
    ap.add_argument("--generate-only", action="store_true",
                    help="write the code base and its compile_commands.json, then stop")
    opts = ap.parse_args()
    count = 10 if opts.quick else opts.tus
    sizes = [int(x) for x in opts.sizes.split(",") if x.strip()]
    if opts.quick and opts.sizes == ap.get_default("sizes"):
        sizes = [100, 200]

    binary = os.path.abspath(opts.warpfix)
    if not os.access(binary, os.X_OK):
        sys.exit(f"bench: no warpfix binary at {binary} (build it, or pass --warpfix)")
    for tool in (opts.clang,) + (() if opts.scaling_only else (opts.clang_tidy,)):
        if not shutil.which(tool):
            sys.exit(f"bench: {tool} not found (scripts/bench.sh installs it)")
    out = os.path.abspath(opts.out)
    given = binary
    binary = snapshot(binary, os.path.join(out, "warpfix"))
    prefix = os.path.dirname(os.path.dirname(binary))
    compat = os.path.join(prefix, "share", "warpfix", "compat")
    if not os.path.isdir(compat):
        compat = os.path.join(REPO, "tool", "compat")
    resource_dir = os.path.join(prefix, "lib", "clang", "19")
    if not os.path.isdir(resource_dir):
        resource_dir = subprocess.run([opts.clang, "-print-resource-dir"],
                                      capture_output=True, text=True,
                                      check=True).stdout.strip()
    flags = warpfix_flags(binary)
    if opts.instructions and not shutil.which("valgrind"):
        sys.exit("bench: --instructions counts with valgrind, which is not "
                 "installed (apt-get install valgrind)")

    scaling = None
    if sizes and not opts.generate_only:
        log(f"bench: scaling, {', '.join(map(str, sizes))} kernels per file")
        scaling = run_scaling(binary, opts.clang, sizes, opts.reps, out,
                              opts.cuda_path, compat, resource_dir,
                              opts.instructions)
    if opts.scaling_only:
        if scaling:
            print_scaling(scaling)
        if opts.json:
            with open(opts.json, "w") as f:
                json.dump({"scaling": scaling}, f, indent=1)
        return 1 if scaling and any(r["failed"] for r in scaling["rows"]) else 0

    # ---- The code base.
    cb = prepare(out, count, opts.seed, opts.cuda_path, compat, resource_dir)
    if opts.generate_only:
        return 0

    t = time_runs(opts, binary, cb, flags, out)

    # ---- Findings: the whole-code-base runs must agree.
    agreement = compare_runs(t.warpfix_runs, flags["--format=json"], t.loud)

    # ---- Ratios.
    clang_full = t.clang.over(cb.full)
    rows = ratio_rows(t, clang_full, flags)

    # A scaling run that failed is a tool failure too, listed after those of
    # the code base.
    if scaling:
        for r in scaling["rows"]:
            if r["failed"]:
                t.problems.append(f"scaling run of {r['kernels']} kernels failed: "
                                  + ", ".join(r["failed"]))
    print_report(cb, t, clang_full, rows, agreement, scaling, given, binary, flags)

    if opts.json:
        result = json_result(cb, t, clang_full, rows, agreement, scaling, given, flags,
                             opts.seed)
        with open(opts.json, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if t.problems else 0
