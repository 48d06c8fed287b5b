"""The timed runs on the code base: first the check that the clang parse runs
warpfix's -cc1 command line, then the clang parse and clang-tidy of each TU,
interleaved, with warpfix's cold run of the full-parse TUs spread over that
loop, then warpfix over the whole code base: cold (with shared preambles and
without), -j2, and a cache fill then a warm run, each with the flags the
binary has.  A tool that fails is a problem reported, not an exception.
"""
import os
import types

from .clangflags import verify_flags
from .measuring import Sum, log, measure

TIDY_CHECK = "-*,bugprone-assert-side-effect"


class Timings(types.SimpleNamespace):
    """What time_runs measured: clang and tidy (a Sum each, one run per TU),
    full_runs (warpfix's cold runs of the full-parse TUs), warpfix_runs
    ({key: (label, run)} of the runs whose findings are compared), cold,
    cold_full (the median of full_runs), cold_off, cold_full_off (without
    shared preambles), j2 and warm (None where the binary lacks the flag),
    stats (the --stats flag given to the cold run, if any), notes, flag_diff
    (verify_flags' result), and the problems and loud warnings found."""


def time_runs(opts, binary, cb, flags, out):
    """Times clang, clang-tidy and warpfix on the code base cb; returns Timings."""
    root, build, tidy_db = cb.root, cb.build, cb.tidy_db
    files, full, parse_args = cb.files, cb.full, cb.parse_args
    problems = []
    loud = []

    # ---- The clang parse must be the parse warpfix runs.
    # Parsed for sure: no cache, no prefilter.
    extra = [f for f in ("--no-cache", "--no-prefilter") if flags[f]]
    flag_diff = verify_flags(binary, build, [opts.clang] + parse_args[files[0]][1:],
                             files[0], root, extra)
    if flag_diff:
        loud.append(flag_diff)
    else:
        log("bench: the clang parse runs the same -cc1 command line as warpfix")

    # ---- warpfix: its flags.
    base = [binary, "-p", build]
    common = []
    notes = []
    if flags["--quiet"]:
        common.append("--quiet")
    if flags["--format=json"]:
        common.append("--format=json")
    cold_flags = []
    if flags["-j"]:
        cold_flags += ["-j", "1"]
    else:
        notes.append("no -j flag: the cold runs use warpfix's default, one TU at a time")
    if flags["--no-cache"]:
        cold_flags.append("--no-cache")
    else:
        notes.append("no --no-cache flag: the binary has no cache, so every run is cold")

    warpfix_runs = {}

    def measure_warpfix(label, argv):
        log(f"  warpfix {label}: {' '.join(argv[1:])}")
        r = measure(argv, root)
        if r.rc not in (0, 1):
            problems.append(f"warpfix {label} failed (exit {r.rc}):\n"
                            + r.stderr[-3000:])
        log(f"    {r.wall:.1f} s wall, {r.cpu:.1f} s CPU, "
            f"{r.maxrss / 2**20:.0f} MiB, exit {r.rc}")
        return r

    def run_warpfix(key, label, argv):
        r = measure_warpfix(label, argv)
        warpfix_runs[key] = (label, r)
        return r

    # ---- clang parse and clang-tidy, one process per file, and warpfix's
    # cold run of the full-parse TUs three times, at the middle of each third
    # of that loop. The target compares that run, one process of some ten
    # seconds, with the sum of parses spread over minutes; on a machine whose
    # speed drifts, one run of it moved the ratio from 0.31 to 0.43 with the
    # same instructions. The median of three runs spread over the same minutes
    # as the parses is what the ratio uses. None runs first: the first parse
    # of each set of headers reads them from disk.
    clang = Sum("clang parse")
    tidy = Sum("clang-tidy")
    full_runs = []
    full_argv = base + cold_flags + common + full
    full_run_before = {len(files) // 6, len(files) // 2, 5 * len(files) // 6}

    def time_full_parse_run():
        n = len(full_runs) + 1
        full_runs.append(measure_warpfix(
            f"-j1 cold, full-parse TUs, run {n}/{len(full_run_before)}",
            full_argv))

    # Interleaved, so that changes in the machine's load hit both alike.
    for i, p in enumerate(files):
        if full and i in full_run_before:
            time_full_parse_run()
        r = measure([opts.clang] + parse_args[p][1:], root)
        clang.add(p, r)
        t = measure([opts.clang_tidy, "-p", tidy_db, "--checks=" + TIDY_CHECK,
                     "--quiet", p], root)
        tidy.add(p, t)
        log(f"  [{i + 1}/{len(files)}] {os.path.relpath(p, root)}: clang "
            f"{r.cpu:.2f} s CPU {r.maxrss / 2**20:.0f} MiB, clang-tidy "
            f"{t.cpu:.2f} s CPU {t.maxrss / 2**20:.0f} MiB")
    for s in (clang, tidy):
        for p, r in s.failures():
            problems.append(f"{s.name} failed on {p} (exit {r.rc}):\n"
                            + (r.stderr or r.stdout)[-3000:])

    stats = []
    if flags["--stats"]:
        stats = ["--stats"]
    cold = run_warpfix("cold", "-j1 cold, all TUs",
                       base + cold_flags + common + stats)
    cold_full = None
    if full_runs:
        cold_full = sorted(full_runs, key=lambda r: r.cpu)[len(full_runs) // 2]
        spread = " / ".join(f"{r.cpu:.1f}" for r in full_runs)
        warpfix_runs["cold_full"] = (
            f"-j1 cold, full-parse TUs, the median of {len(full_runs)} runs "
            f"({spread} s CPU)", cold_full)
    # The same cold runs with each unit parsing its system headers itself
    # (issue 18, part 2): the ratio with shared preambles on and off.
    cold_off = cold_full_off = None
    if flags["--no-shared-preambles"]:
        off = ["--no-shared-preambles"]
        cold_off = run_warpfix("cold_noshare",
                               "-j1 cold, all TUs, no shared preambles",
                               base + cold_flags + off + common)
        cold_full_off = run_warpfix(
            "cold_full_noshare", "-j1 cold, full-parse TUs, no shared preambles",
            base + cold_flags + off + common + full) if full else None
    j2 = None
    if flags["-j"]:
        j2_flags = ["-j", "2"] + (["--no-cache"] if flags["--no-cache"] else [])
        j2 = run_warpfix("j2", "-j2 cold, all TUs", base + j2_flags + common)
    warm = None
    if flags["--cache-dir"]:
        cache = os.path.join(out, "cache")
        jflag = ["-j", "1"] if flags["-j"] else []
        run_warpfix("fill", "-j1 cache fill, all TUs",
                    base + jflag + ["--cache-dir=" + cache] + common)
        warm = run_warpfix("warm", "-j1 warm cache, all TUs",
                           base + jflag + ["--cache-dir=" + cache] + common)
    return Timings(clang=clang, tidy=tidy, full_runs=full_runs, warpfix_runs=warpfix_runs,
                   cold=cold, cold_full=cold_full, cold_off=cold_off,
                   cold_full_off=cold_full_off, j2=j2, warm=warm, stats=stats, notes=notes,
                   flag_diff=flag_diff, problems=problems, loud=loud)
