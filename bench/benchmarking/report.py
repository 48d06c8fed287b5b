"""The report: the ratios against their targets, the absolute figures of every
run, the clang parse cost by kind of TU and the slowest parses, the scaling
table, the warnings in banners and the tool failures, all on standard
output; and the same as the --json document (json_result).
"""
import os
import platform
import time

from generating.codebase import KINDS

from .ratios import ratio
from .timing import TIDY_CHECK


def fmt_s(x):
    return "n/a" if x is None else f"{x:.1f}"


def fmt_mib(x):
    return "n/a" if x is None else f"{x / 2**20:.0f}"


def print_scaling(s):
    print()
    print(f"scaling: one file of N kernels, three legacy calls each; medians "
          f"of {s['reps']} runs (CPU), maxima of peak RSS")
    print()
    print("| kernels | lines | findings | clang parse s | warpfix s | "
          "warpfix / parse, paired | ratio of medians | parse / parse "
          "(noise band) | --diff s | report RSS MiB | --diff RSS MiB | "
          "--diff / report RSS |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in s["rows"]:
        low, high = r["noise_band"]
        print(f"| {r['kernels']} | {r['lines']} | {r['findings']} | "
              f"{r['parse_cpu_s']:.2f} | {r['report_cpu_s']:.2f} | "
              f"{r['paired_ratio']:.2f} | {r['ratio']:.2f} | "
              f"{low:.2f} to {high:.2f} | {r['diff_cpu_s']:.2f} | "
              f"{fmt_mib(r['report_rss_bytes'])} | {fmt_mib(r['diff_rss_bytes'])} | "
              f"{r['diff_rss_ratio']:.2f} |"
              + (" FAILED: " + ", ".join(r["failed"]) if r["failed"] else ""))

    def fmt_exp(x):
        return "n/a" if x is None else f"{x:.2f}"
    print()
    print(f"slope (fitted exponent b of CPU time ~ N^b): clang parse "
          f"{fmt_exp(s['parse_exponent'])}, warpfix {fmt_exp(s['report_exponent'])}, "
          f"--diff {fmt_exp(s['diff_exponent'])}")
    counted = [r for r in s["rows"] if "instruction_ratio" in r]
    if counted:
        print()
        print("instructions (callgrind, one run each; not moved by the "
              "machine's load):")
        print()
        print("| kernels | clang parse | warpfix | warpfix / parse |")
        print("|---|---|---|---|")
        for r in counted:
            def fmt_count(x):
                return "?" if x is None else f"{x / 1e6:,.0f} M"
            ratio = r["instruction_ratio"]
            print(f"| {r['kernels']} | {fmt_count(r['parse_instructions'])} | "
                  f"{fmt_count(r['report_instructions'])} | "
                  f"{'?' if ratio is None else f'{ratio:.2f}'} |")
        print()
    print("warpfix / parse, paired: the median over the runs of the report's "
          "CPU time over the mean of the parses just before and after it. "
          "parse / parse: the second of those parses over the first, the "
          "least and the most of the runs.")
    print(f"warpfix / parse (paired) <= 1.2 at every size: "
          f"{'met' if s['ratio_target_met'] else 'NOT MET'}; "
          f"--diff peak RSS <= 1.2x the report's: "
          f"{'met' if s['rss_target_met'] else 'NOT MET'}")


def print_report(cb, t, clang_full, rows, agreement, scaling, given, binary, flags):
    """Prints the report of the code base cb from the Timings t, clang_full
    (the clang parse over the full-parse TUs), the ratio rows, the findings'
    Agreement, the scaling results (or None), the binary as given and the
    copy that ran, and the binary's flags."""
    files, tus, full, root, kind_of = cb.files, cb.tus, cb.full, cb.root, cb.kind_of
    clang, tidy, cold, cold_full = t.clang, t.tidy, t.cold, t.cold_full
    warpfix_runs, flag_diff, notes, stats = t.warpfix_runs, t.flag_diff, t.notes, t.stats
    loud, problems = t.loud, t.problems
    counts, compared = agreement.counts, agreement.compared
    disagree, comparable = agreement.disagree, agreement.comparable
    # ---- Report.
    print()
    print(f"warpfix benchmark: {len(files)} TUs "
          f"({', '.join(f'{k} {sum(1 for _, x in tus if x == k)}' for k in KINDS)}), "
          f"{len(full)} need a full parse; {os.cpu_count()} CPUs, "
          f"load average at the end {os.getloadavg()[0]:.2f}")
    print(f"warpfix: {given} (run from a copy, {binary})")
    print()
    print("| ratio | measured on | value | wall-time ratio | target | status |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        v = "n/a" if row["value"] is None else f"{row['value']:.3f}"
        w = "" if row["wall"] is None else f"{row['wall']:.3f}"
        print(f"| {row['ratio']} | {row['measure']} | {v} | {w} | "
              f"{row['target']} | {row['status']} |")
    print()
    print("| run | TUs | wall s | CPU s | peak RSS MiB | findings | exit | load |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| clang++ -fsyntax-only, sum over TUs | {len(files)} | "
          f"{clang.wall:.1f} | {clang.cpu:.1f} | {fmt_mib(clang.maxrss)} (max) | | "
          f"{'ok' if not clang.failures() else 'FAILED'} | {clang.load:.1f} |")
    print(f"| clang++ -fsyntax-only, full-parse TUs | {len(full)} | "
          f"{clang_full.wall:.1f} | {clang_full.cpu:.1f} | "
          f"{fmt_mib(clang_full.maxrss)} (max) | | | {clang_full.load:.1f} |")
    print(f"| clang-tidy {TIDY_CHECK}, sum over TUs | {len(files)} | "
          f"{tidy.wall:.1f} | {tidy.cpu:.1f} | {fmt_mib(tidy.maxrss)} (max) | | "
          f"{'ok' if not tidy.failures() else 'FAILED'} | {tidy.load:.1f} |")
    for key, (label, r) in warpfix_runs.items():
        n = len(full) if key in ("cold_full", "cold_full_noshare") else len(files)
        c = counts[key]
        print(f"| warpfix {label} | {n} | {r.wall:.1f} | {r.cpu:.1f} | "
              f"{fmt_mib(r.maxrss)} | {'?' if c is None else c} | {r.rc} | "
              f"{r.load:.1f} |")
    for flag in ("-j", "--cache-dir"):
        if not flags[flag]:
            print(f"| warpfix runs needing {flag} | | n/a (flag missing) | | | | | |")
    print(f"load: the 1-minute load average when each run ended (the mean over "
          f"the TUs for the sums), on {os.cpu_count()} CPUs; where it is above "
          f"the number of CPUs, other work shared them and even CPU times grow")
    print()
    by_kind = {}
    for p, r in clang.runs.items():
        k = by_kind.setdefault(kind_of[p], [0, 0.0, 0])
        k[0] += 1
        k[1] += r.cpu
        k[2] = max(k[2], r.maxrss)
    print("clang parse CPU by kind of TU: " + "; ".join(
        f"{k} {v[0]} TUs {v[1]:.1f} s ({v[1] / max(clang.cpu, 1e-9):.0%}), "
        f"max {v[2] / 2**20:.0f} MiB" for k, v in by_kind.items()))
    slow = sorted(clang.runs.items(), key=lambda x: -x[1].cpu)[:5]
    print("slowest clang parses: " + ", ".join(
        f"{os.path.relpath(p, root)} {r.cpu:.1f} s" for p, r in slow))
    print("flags: " + ("the clang parse and warpfix run the same -cc1 command "
                       "line (checked on one TU with -v / -###)"
                       if not flag_diff else "DIFFERENT, see below"))
    if cold_full:
        print("warpfix cold / clang parse, all TUs (for reference): "
              f"{ratio(cold.cpu, clang.cpu):.3f} CPU, "
              f"{ratio(cold.wall, clang.wall):.3f} wall")
    if compared:
        how = ("--format=json output" if flags["--format=json"]
               else "sorted text output")
        print("findings of the whole-code-base runs: " + ", ".join(
            f"{k} {counts[k]}" for k in compared)
            + (f"; {how} identical" if len(compared) > 1 and not disagree
               and comparable else "; NOT IDENTICAL" if disagree else ""))
    for n in notes:
        print("note: " + n)
    if scaling:
        print_scaling(scaling)
    if stats:
        print("warpfix --stats (cold run):")
        print("  " + "\n  ".join(cold.stderr.strip().splitlines()[-30:]))
    if problems or loud:
        print()
    for p in loud:
        print("!" * 78)
        print("WARNING: " + p)
        print("!" * 78)
    for p in problems:
        print("TOOL FAILURE: " + p)


def json_result(cb, t, clang_full, rows, agreement, scaling, given, flags, seed):
    """The --json document: what print_report prints, per TU too."""
    files, tus, full, root = cb.files, cb.tus, cb.full, cb.root
    kind_of, needs = cb.kind_of, cb.needs
    clang, tidy, full_runs, warpfix_runs = t.clang, t.tidy, t.full_runs, t.warpfix_runs
    notes, flag_diff, loud, problems = t.notes, t.flag_diff, t.loud, t.problems
    counts, disagree, comparable = agreement.counts, agreement.disagree, agreement.comparable
    result = {
        "meta": {"tus": len(files), "full_parse_tus": len(full),
                 "kinds": {k: sum(1 for _, x in tus if x == k)
                           for k in KINDS},
                 "seed": seed, "warpfix": given,
                 "cpus": os.cpu_count(), "loadavg_end": os.getloadavg(),
                 "host": platform.node(), "flags": flags, "notes": notes,
                 "time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        "ratios": [{k: row[k] for k in ("ratio", "measure", "value",
                                         "wall", "target", "status")}
                   for row in rows],
        "runs": {
            "clang_parse": {"wall_s": clang.wall, "cpu_s": clang.cpu,
                            "max_rss_bytes": clang.maxrss,
                            "mean_load": clang.load},
            "clang_parse_full": {"wall_s": clang_full.wall,
                                 "cpu_s": clang_full.cpu,
                                 "max_rss_bytes": clang_full.maxrss},
            "clang_tidy": {"wall_s": tidy.wall, "cpu_s": tidy.cpu,
                           "max_rss_bytes": tidy.maxrss,
                           "mean_load": tidy.load},
            **{"warpfix_" + k: {"label": label, "argv": r.argv,
                                "wall_s": r.wall, "cpu_s": r.cpu,
                                "max_rss_bytes": r.maxrss, "exit": r.rc,
                                "load_at_end": r.load,
                                "findings": counts[k]}
               for k, (label, r) in warpfix_runs.items()},
            "warpfix_cold_full_each": [
                {"wall_s": r.wall, "cpu_s": r.cpu,
                 "max_rss_bytes": r.maxrss, "exit": r.rc,
                 "load_at_end": r.load} for r in full_runs],
        },
        "per_tu": {os.path.relpath(p, root): {
            "kind": kind_of[p], "needs_full_parse": needs[p],
            "clang_cpu_s": clang.runs[p].cpu,
            "clang_rss_bytes": clang.runs[p].maxrss,
            "tidy_cpu_s": tidy.runs[p].cpu,
            "tidy_rss_bytes": tidy.runs[p].maxrss} for p in files},
        "scaling": scaling,
        "same_cc1_command_line": flag_diff is None,
        "findings_agree": (not disagree) if comparable else None,
        "warnings": loud,
        "tool_failures": problems,
    }
    return result
