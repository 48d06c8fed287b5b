"""The scaling runs (issue 18): one generated file of N small kernels at
several N, the clang parse, the warpfix report, the parse again and warpfix
--diff timed interleaved, with medians, the paired ratio and its noise band,
the fitted exponent of CPU time against N, and with --instructions the
instructions counted by callgrind.
"""
import os
import re
import shutil
import subprocess

from generating.scaling import write_scaling

from .clangflags import warpfix_parse_args
from .findings import FINDING
from .measuring import log, measure

# Scaling (issue 18): one file of N small kernels at several N. warpfix's
# cost must grow like the parse's; --diff must cost no more memory than the
# report.


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if n == 0 else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def fitted_exponent(sizes, times):
    """b in time = a * size^b, by least squares on the logs."""
    import math
    pts = [(math.log(n), math.log(t)) for n, t in zip(sizes, times) if t and t > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return None if sxx == 0 else sum((x - mx) * (y - my) for x, y in pts) / sxx


def instructions_of(argv, cwd):
    """The instructions argv executes, counted by callgrind: unlike CPU time,
    a figure that other work on the machine does not move, so a change of a
    few percent shows. None if the count could not be read."""
    r = subprocess.run(["valgrind", "--tool=callgrind",
                        "--callgrind-out-file=/dev/null"] + argv,
                       cwd=cwd, capture_output=True, text=True)
    counted = re.search(r"Collected : (\d+)", r.stderr)
    return int(counted.group(1)) if counted else None


def run_scaling(binary, clang, sizes, reps, out, cuda_path, compat,
                resource_dir, count_instructions=False):
    """Times the clang parse, the warpfix report, the parse again and warpfix
    --diff of each generated file, reps times each, interleaved so that the
    machine's load hits them alike; medians of CPU time, maxima of peak RSS.
    With
    count_instructions, also counts the instructions of one parse and one
    report.

    Each run's report sits between two parses, and the ratio that meets the
    target is the median over the runs of report / the mean of those two: on
    a machine whose speed drifts over seconds (a shared VM), runs a second
    apart see the same speed, where the medians of each kind compare runs a
    minute apart. The second parse timed against the first is the noise band:
    what the same work shows against itself in the same run."""
    root = os.path.join(out, "scaling")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)
    rows = []
    for n in sizes:
        path = write_scaling(root, n)
        with open(path) as f:
            lines = sum(1 for _ in f)
        entry = [clang, "-x", "cuda", "--cuda-gpu-arch=sm_70", "-std=c++17",
                 path]
        parse = [clang] + warpfix_parse_args(entry, cuda_path, compat,
                                             resource_dir)[1:]
        report = [binary, "--no-cache", "--quiet", path]
        diff = [binary, "--no-cache", "--quiet", "--diff", path]
        runs = {"parse": [], "report": [], "parse_again": [], "diff": []}
        for rep in range(reps):
            for key, argv in (("parse", parse), ("report", report),
                              ("parse_again", parse), ("diff", diff)):
                r = measure(argv, root)
                runs[key].append(r)
            log(f"  scaling {n} kernels, run {rep + 1}/{reps}: clang "
                f"{runs['parse'][-1].cpu:.2f} / "
                f"{runs['parse_again'][-1].cpu:.2f} s, warpfix "
                f"{runs['report'][-1].cpu:.2f} s, --diff "
                f"{runs['diff'][-1].cpu:.2f} s CPU; RSS "
                f"{runs['report'][-1].maxrss / 2**20:.0f} / "
                f"{runs['diff'][-1].maxrss / 2**20:.0f} MiB")
        failed = [f"{k} exit {r.rc}" for k, rs in runs.items() for r in rs
                  if r.rc not in ((0,) if k.startswith("parse") else (0, 1))]
        findings = len(FINDING.findall(runs["report"][0].stdout))
        row = {"kernels": n, "lines": lines, "bytes": os.path.getsize(path),
               "findings": findings, "failed": failed}
        for key, rs in runs.items():
            row[key + "_cpu_s"] = median([r.cpu for r in rs])
            row[key + "_wall_s"] = median([r.wall for r in rs])
            row[key + "_rss_bytes"] = max(r.maxrss for r in rs)
        row["ratio"] = row["report_cpu_s"] / row["parse_cpu_s"]
        paired = [r.cpu / ((p.cpu + q.cpu) / 2) for p, r, q in
                  zip(runs["parse"], runs["report"], runs["parse_again"])]
        row["paired_ratio"] = median(paired)
        row["paired_ratios"] = paired
        self_ratios = [q.cpu / p.cpu for p, q in
                       zip(runs["parse"], runs["parse_again"])]
        row["noise_band"] = [min(self_ratios), max(self_ratios)]
        row["diff_rss_ratio"] = row["diff_rss_bytes"] / row["report_rss_bytes"]
        if count_instructions:
            log(f"  scaling {n} kernels: counting instructions (callgrind)")
            parsed = instructions_of(parse, root)
            reported = instructions_of(report, root)
            row["parse_instructions"] = parsed
            row["report_instructions"] = reported
            row["instruction_ratio"] = (reported / parsed
                                        if parsed and reported else None)
        rows.append(row)
    result = {"sizes": sizes, "reps": reps, "rows": rows}
    for key in ("parse", "report", "diff"):
        result[key + "_exponent"] = fitted_exponent(
            sizes, [r[key + "_cpu_s"] for r in rows])
    result["ratio_target_met"] = all(r["paired_ratio"] <= 1.2 for r in rows)
    result["rss_target_met"] = all(r["diff_rss_ratio"] <= 1.2 for r in rows)
    return result
