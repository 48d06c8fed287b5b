#!/usr/bin/env python3
"""warpfix's cost per translation unit on the real-world corpus, against a
parse of the same unit with the same settings.

For every .cu unit of every project of projects.json that has a checkout under
--corpus, two processes are timed, one after the other, with no cache:

  baseline  warpfix --parse-only --no-prefilter: the unit parsed as a run
            parses it (the toolkit set-up, the compat headers, nvcc's dialect
            shown to clang, headers found by name, clang's error recovery),
            and no check run on it;
  warpfix   warpfix as a user runs it on that unit alone: prefilter, checks,
            the re-parse of every fix.

clang's own parse stops at the first fatal error, a header the machine lacks,
so it is no fair baseline on code that does not compile; the baseline above
goes on as warpfix does.

With --against OLD, a third process runs another warpfix build on the unit
as a user runs it; its JSON report and exit code are compared with the
first's byte for byte, and its CPU time gives a speed-up (OLD over warpfix)
measured in the same run. A change meant only to be faster must show every
unit identical.

The ratio is CPU time (user + system, os.wait4) of warpfix over the
baseline's, over the units the warpfix run parsed (those its prefilter skips
cost next to nothing and are counted apart). The median, the 90th percentile
and the slowest units are printed; --json keeps every row. With
--stop-after S, no unit starts after S seconds: those running finish, and the
summary covers what was measured, so a run on a machine lent for a limited
time is not lost with its last unit.

  python3 bench/real-world/unit-speed.py --corpus /work/sweep/corpus \\
      --warpfix build/bin/warpfix -j 2 --json speed.json
"""
import argparse
import concurrent.futures
import json
import os
import random
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweeping.inputs import project_args, source_paths, tus_of  # noqa: E402


def run(cmd, timeout):
    """(rc, CPU seconds, wall seconds, stdout) of one process, reaped by
    os.wait4 for its resource usage."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    killer = threading.Timer(timeout, p.kill)
    killer.start()
    out = p.stdout.read()
    p.stdout.close()
    _, status, usage = os.wait4(p.pid, 0)
    killer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    return (p.returncode, usage.ru_utime + usage.ru_stime,
            time.monotonic() - t0, out)


def percentile(values, q):
    if not values:
        return None
    s = sorted(values)
    k = (len(s) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def fmt(value):
    return "%.2f" % value if value is not None else "n/a"


def fastest(runs):
    """The run of least CPU among repeats of one command: what a loaded
    machine adds (other jobs' caches, memory bandwidth) only ever adds."""
    return min(runs, key=lambda r: r[1])


def measure(unit, tool_args, flags, warpfix, timeout, against=None, repeat=1):
    base = [warpfix, "--no-cache", "--quiet", "-j", "1"] + tool_args
    parse_cmd = base + ["--parse-only", "--no-prefilter", unit, "--"] + flags
    warpfix_cmd = base + ["--format=json", unit, "--"] + flags
    parses, runs = [], []
    # Alternated, so that a moment of load falls on both.
    for _ in range(repeat):
        parses.append(run(parse_cmd, timeout))
        runs.append(run(warpfix_cmd, timeout))
    rc_p, cpu_p, wall_p, _ = fastest(parses)
    rc_w, cpu_w, wall_w, out = fastest(runs)
    row = {"unit": unit, "parse_cpu_s": round(cpu_p, 3),
           "warpfix_cpu_s": round(cpu_w, 3), "parse_rc": rc_p,
           "warpfix_rc": rc_w, "parse_wall_s": round(wall_p, 3),
           "warpfix_wall_s": round(wall_w, 3)}
    try:
        summary = json.loads(out)["summary"]
        row["skipped"] = summary.get("skippedTranslationUnits", 0) > 0
        row["findings"] = summary.get("findings", 0)
        row["fixable"] = summary.get("fixable", 0)
    except (ValueError, KeyError):
        row["skipped"] = None
    row["ratio"] = round(cpu_w / cpu_p, 3) if cpu_p > 0 else None
    if against:
        old = [against] + base[1:] + ["--format=json", unit, "--"] + flags
        rc_o, cpu_o, _, out_o = run(old, timeout)
        row["against_cpu_s"] = round(cpu_o, 3)
        row["identical"] = rc_o == rc_w and out_o == out
        row["speedup"] = round(cpu_o / cpu_w, 3) if cpu_w > 0 else None
    return row


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--warpfix", required=True)
    ap.add_argument("--projects", default=os.path.join(here, "projects.json"))
    ap.add_argument("--only", action="append", default=[],
                    help="a project's name (repeatable); default: every one checked out")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="units timed at once (each process runs -j 1)")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--against",
                    help="another warpfix build: compare its reports and time")
    ap.add_argument("--stop-after", type=float, metavar="SECONDS",
                    help="start no unit after this long, finish those running, "
                         "and report what was measured (a machine lent for a "
                         "limited time keeps its results)")
    ap.add_argument("--repeat", type=int, default=1,
                    help="run each command this many times and keep the run "
                         "of least CPU (noise on a loaded machine only adds)")
    ap.add_argument("--sample", type=int, metavar="N",
                    help="time N units drawn at random (--seed) from those "
                         "selected, in a random order, so that a run cut by "
                         "--stop-after still measures a fair sample")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json")
    args = ap.parse_args()

    doc = json.load(open(args.projects))
    defaults = doc.get("defaults", {})
    work = []
    for p in doc["projects"]:
        root = os.path.join(args.corpus, p["name"])
        if not os.path.isdir(root) or (args.only and p["name"] not in args.only):
            continue
        tool_args, flags = project_args(p, root, defaults, [])
        srcs = [s for s in source_paths(p, root) if os.path.exists(s)]
        for unit in tus_of(srcs):
            work.append((p["name"], unit, tool_args, flags))
    if not work:
        sys.exit("no checked-out project under %s" % args.corpus)
    if args.sample is not None:
        work = random.Random(args.seed).sample(work, min(args.sample, len(work)))

    rows = []
    started = time.monotonic()
    not_measured = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(measure, unit, t, f, args.warpfix, args.timeout,
                               args.against, args.repeat):
                   (name, unit) for name, unit, t, f in work}
        for fut in concurrent.futures.as_completed(futures):
            if (args.stop_after is not None and not not_measured
                    and time.monotonic() - started > args.stop_after):
                # cancel() is true for each unit not yet started.
                not_measured = sum(f.cancel() for f in futures)
            if fut.cancelled():
                continue
            name, unit = futures[fut]
            row = fut.result()
            row["project"] = name
            rows.append(row)
            against = ""
            if "identical" in row:
                against = ", against %.2f s, %s" % (
                    row["against_cpu_s"],
                    "identical" if row["identical"] else "DIFFERS")
            print("[%d/%d] %s %s: parse %.2f s, warpfix %.2f s%s%s" % (
                len(rows), len(work), name, os.path.relpath(unit, args.corpus),
                row["parse_cpu_s"], row["warpfix_cpu_s"], against,
                ", skipped by the prefilter" if row["skipped"] else ""),
                file=sys.stderr, flush=True)
    if not_measured:
        print("not measured (--stop-after %g s): %d units" % (
            args.stop_after, not_measured))
        print()

    parsed = [r for r in rows if r["skipped"] is False and r["ratio"]]
    skipped = [r for r in rows if r["skipped"]]
    unknown = [r for r in rows if r["skipped"] is None]
    print("| project | units | parsed by warpfix | median ratio | p90 ratio | "
          "parse CPU s | warpfix CPU s |")
    print("|---|---|---|---|---|---|---|")
    for name in sorted({r["project"] for r in rows}) + [None]:
        mine = [r for r in parsed if name is None or r["project"] == name]
        every = [r for r in rows if name is None or r["project"] == name]
        ratios = [r["ratio"] for r in mine]
        print("| %s | %d | %d | %s | %s | %.1f | %.1f |" % (
            name or "**all**", len(every), len(mine),
            fmt(percentile(ratios, 0.5)), fmt(percentile(ratios, 0.9)),
            sum(r["parse_cpu_s"] for r in mine),
            sum(r["warpfix_cpu_s"] for r in mine)))
    print()
    print("skipped by the prefilter: %d units, %.1f s of warpfix CPU in all; "
          "no JSON report (warpfix failed or timed out): %d" % (
              len(skipped), sum(r["warpfix_cpu_s"] for r in skipped), len(unknown)))
    print()
    print("slowest against their parse:")
    for r in sorted(parsed, key=lambda r: -r["ratio"])[:8]:
        print("  %.2f  %s (parse %.2f s, warpfix %.2f s, %s findings)" % (
            r["ratio"], os.path.relpath(r["unit"], args.corpus),
            r["parse_cpu_s"], r["warpfix_cpu_s"], r.get("findings")))
    if args.against:
        compared = [r for r in rows if "identical" in r]
        differ = [r for r in compared if not r["identical"]]
        speedups = [r["speedup"] for r in parsed if r.get("speedup")]
        print()
        print("against %s: %d units compared, %d with a different report or "
              "exit code; speed-up (its CPU over warpfix's) over the parsed "
              "units: median %s, p90 %s, CPU %.1f s against %.1f s" % (
                  args.against, len(compared), len(differ),
                  fmt(percentile(speedups, 0.5)), fmt(percentile(speedups, 0.9)),
                  sum(r["against_cpu_s"] for r in parsed if "against_cpu_s" in r),
                  sum(r["warpfix_cpu_s"] for r in parsed if "against_cpu_s" in r)))
        for r in differ:
            print("  differs: %s" % os.path.relpath(r["unit"], args.corpus))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%dT%H:%M:%S"),
                       "warpfix": args.warpfix, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
