#!/usr/bin/env python3
"""warpfix benchmark: generates a mixed CUDA code base and times warpfix
against a plain clang parse and a one-check clang-tidy on the same files with
the same flags. See bench/README.md.

Targets are printed and compared, never asserted: the exit status is 0 unless
a tool failed to run (a crash, an exit status other than 0 for clang and
clang-tidy, or 2 for warpfix). Warpfix runs that disagree on the findings
are flagged loudly in the output and the JSON.
"""

import argparse
import json
import os
import platform
import re
import resource  # noqa: F401  (ru_* fields of os.wait4's result)
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import generate  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIDY_CHECK = "-*,bugprone-assert-side-effect"

# What the checks need to see in a TU (or a non-system header it includes)
# before a full parse can find anything. `_sync` is matched anywhere in an
# identifier, so it also covers __syncwarp and __syncthreads.
TRIGGERS = [
    ("legacy name", re.compile(
        r"\b(?:__shfl|__shfl_up|__shfl_down|__shfl_xor|__ballot|__any|__all)\b")),
    ("__activemask", re.compile(r"\b__activemask\b")),
    ("_sync", re.compile(r"_sync")),
    ("__shared__", re.compile(r"\b__shared__\b")),
]
ASM = re.compile(r"\b(?:asm|__asm__|__asm)\b")
ASM_WARP = re.compile(r"\b(?:shfl|vote)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


# --------------------------------------------------------------------------
# The flags warpfix gives clang (tool/input/CompileCommands.cpp, cudaCommandLine,
# for a clang entry of the database) plus what LibTooling's ClangTool adds
# (-fsyntax-only; -o and its argument removed).

ARCH_PREFIXES = ("--cuda-gpu-arch=", "--offload-arch=")
OFFLOAD_MODE = ("--cuda-device-only", "--cuda-host-only",
                "--cuda-compile-host-device")


def nvcc_version(cuda_path):
    """The toolkit version warpfix predefines as __CUDACC_VER_*__, found the
    way tool/input/CudaToolkit.cpp finds it."""
    try:
        with open(os.path.join(cuda_path, "version.json")) as f:
            text = json.load(f)["cuda_nvcc"]["version"]
        m = re.match(r"(\d+)\.(\d+)\.(\d+)", text)
        if m:
            return tuple(int(g) for g in m.groups())
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        for name in os.listdir(os.path.join(cuda_path, "dist-info")):
            m = re.match(r"nvidia_cuda_nvcc-(\d+)\.(\d+)\.(\d+)", name)
            if m:
                return tuple(int(g) for g in m.groups())
    except OSError:
        pass
    try:
        with open(os.path.join(cuda_path, "include", "cuda.h")) as f:
            m = re.search(r"#define[ \t]+CUDA_VERSION[ \t]+(\d+)", f.read())
        if m:
            v = int(m.group(1))
            return (v // 1000, v % 1000 // 10, 0)
    except OSError:
        pass
    return None


def warpfix_parse_args(entry_args, cuda_path, compat, resource_dir):
    arch = ""
    args = []
    for a in entry_args:
        hit = next((p for p in ARCH_PREFIXES if a.startswith(p)), None)
        if hit:
            arch = arch or a[len(hit):]
            continue
        if a in OFFLOAD_MODE:
            continue
        args.append(a)
    arch = arch or "sm_70"
    front = ["-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=" + arch,
             "--cuda-path=" + cuda_path, "-resource-dir=" + resource_dir,
             "-isystem", compat,
             "-include", os.path.join(compat, "warpfix_legacy_intrinsics.h"),
             "-include", os.path.join(compat, "warpfix_surface_functions.h"),
             "-include", os.path.join(compat, "warpfix_host_min_max.h"),
             "-isystem", os.path.join(cuda_path, "include", "cccl"),
             "-Wno-unknown-cuda-version", "-w", "-ferror-limit=0",
             "-Wno-missing-template-arg-list-after-template-kw",
             "-Wno-register", "-Wno-c++11-narrowing"]
    version = nvcc_version(cuda_path)
    if version:
        front += ["-D__CUDACC_VER_%s__=%d" % (name, value)
                  for name, value in zip(("MAJOR", "MINOR", "BUILD"), version)]
    if not any(a.startswith(("-std=", "--std=")) for a in args):
        front.append("-std=c++17")
    args = args[:1] + front + args[1:]
    # ClangTool's adjusters: strip the output, parse only.
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a.startswith("-o") and len(a) > 2:
            continue
        out.append(a)
    if "-fsyntax-only" not in out:
        out.append("-fsyntax-only")
    return out


# --------------------------------------------------------------------------
# Which files need a full parse.


def user_include_dirs(entry_args):
    dirs = []
    it = iter(range(len(entry_args)))
    for i in it:
        a = entry_args[i]
        if a == "-I" and i + 1 < len(entry_args):
            dirs.append(entry_args[i + 1])
            next(it, None)
        elif a.startswith("-I"):
            dirs.append(a[2:])
    return dirs


def triggers_in(path, dirs, seen):
    """The trigger names found in path and the user headers it includes."""
    if path in seen:
        return set()
    seen.add(path)
    with open(path, errors="replace") as f:
        text = f.read()
    found = {name for name, rx in TRIGGERS if rx.search(text)}
    if ASM.search(text) and ASM_WARP.search(text):
        found.add("shfl/vote in asm")
    for kind, name in INCLUDE.findall(text):
        candidates = ([os.path.dirname(path)] if kind == '"' else []) + dirs
        for d in candidates:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                found |= triggers_in(p, dirs, seen)
                break
    return found


# --------------------------------------------------------------------------
# Running and measuring.


class Run:
    def __init__(self, argv, rc, wall, user, sys_, maxrss_kib, stdout, stderr):
        self.argv = argv
        self.rc = rc
        self.wall = wall
        self.cpu = user + sys_
        self.user = user
        self.sys = sys_
        self.maxrss = maxrss_kib * 1024
        self.stdout = stdout
        self.stderr = stderr
        self.load = os.getloadavg()[0]


def measure(argv, cwd, env=None):
    """Runs argv to completion; its wall time, CPU time and peak RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(argv, p.returncode, wall, ru.ru_utime, ru.ru_stime,
                   ru.ru_maxrss, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"))


class Sum:
    """Many runs of one tool, one per file."""

    def __init__(self, name):
        self.name = name
        self.runs = {}

    def add(self, path, run):
        self.runs[path] = run

    def over(self, paths):
        s = Sum(self.name)
        s.runs = {p: self.runs[p] for p in paths}
        return s

    @property
    def wall(self):
        return sum(r.wall for r in self.runs.values())

    @property
    def cpu(self):
        return sum(r.cpu for r in self.runs.values())

    @property
    def load(self):
        return sum(r.load for r in self.runs.values()) / max(len(self.runs), 1)

    @property
    def maxrss(self):
        return max((r.maxrss for r in self.runs.values()), default=0)

    def failures(self):
        return [(p, r) for p, r in self.runs.items() if r.rc != 0]


def cc1_line(text):
    for line in text.splitlines():
        if '"-cc1"' in line:
            args = shlex.split(line)[1:]  # not the driver's path
            return [os.path.realpath(a) if a.startswith("/") else a
                    for a in args if a != "-v" and not a.startswith("-cuid=")]
    return None


def verify_flags(binary, build, clang_argv, path, cwd, extra):
    """Compares the clang -cc1 command line warpfix runs on path (shown by
    `-- -v`) with the one clang_argv runs (shown by -###). None when they are
    the same, else a description of the difference."""
    wf = subprocess.run([binary, "-p", build] + extra + [path, "--", "-v"],
                        cwd=cwd,
                        capture_output=True, text=True)
    cl = subprocess.run(clang_argv + ["-###"], cwd=cwd, capture_output=True,
                        text=True)
    a, b = cc1_line(wf.stderr), cc1_line(cl.stderr)
    if a is None or b is None:
        return "could not read the -cc1 command line of " + (
            "warpfix" if a is None else "clang")
    if a == b:
        return None
    diff = [f"- {x}" for x in a if x not in b] + [f"+ {x}" for x in b if x not in a]
    return ("warpfix's -cc1 command line (-) differs from the clang parse's (+):\n  "
            + "\n  ".join(diff or ["(same arguments, different order)"]))


def snapshot(binary, dest):
    """Copies the binary and what it finds beside it (share/warpfix, and
    lib/clang/19 as a link) under dest, so that a rebuild during the run
    cannot mix two binaries' figures."""
    prefix = os.path.dirname(os.path.dirname(binary))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.join(dest, "bin"))
    copy = os.path.join(dest, "bin", os.path.basename(binary))
    shutil.copy2(binary, copy)
    share = os.path.join(prefix, "share", "warpfix")
    if os.path.isdir(share):
        shutil.copytree(share, os.path.join(dest, "share", "warpfix"))
    resources = os.path.join(prefix, "lib", "clang", "19")
    if os.path.isdir(resources):
        os.makedirs(os.path.join(dest, "lib", "clang"))
        os.symlink(resources, os.path.join(dest, "lib", "clang", "19"))
    return copy


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def warpfix_flags(binary):
    try:
        text = subprocess.run([binary, "--help-hidden"], capture_output=True,
                              text=True, timeout=60).stdout
    except OSError as e:
        sys.exit(f"bench: cannot run {binary}: {e}")
    flags = {}
    for flag in ("-j", "--no-cache", "--cache-dir", "--quiet", "--stats",
                 "--format", "--no-prefilter", "--no-shared-preambles"):
        flags[flag] = re.search(r"(^|\s)" + re.escape(flag) + r"\b", text,
                                re.M) is not None
    flags["--format=json"] = flags["--format"] and re.search(
        r"(=json\b|--format=json)", text) is not None
    return flags


FINDING = re.compile(r"^[^\s].*?:\d+:\d+: warning: .*\[(warp-[a-z-]+)\]\s*$",
                     re.M)
SUMMARY = re.compile(r"(\d+) findings? in (\d+) files?")


def findings_of(run, json_format):
    """(count, canonical text) of a warpfix run's findings."""
    if json_format:
        try:
            data = json.loads(run.stdout)
            items = data if isinstance(data, list) else (
                data.get("findings") or data.get("diagnostics") or [])
            canon = json.dumps(sorted(json.dumps(i, sort_keys=True)
                                      for i in items))
            return len(items), canon
        except (ValueError, AttributeError):
            pass
    lines = FINDING.findall(run.stdout)
    if lines:
        return len(lines), "\n".join(sorted(run.stdout.splitlines()))
    m = SUMMARY.search(run.stderr)
    count = int(m.group(1)) if m else None
    return count, "\n".join(sorted(run.stdout.splitlines()))


def fmt_s(x):
    return "n/a" if x is None else f"{x:.1f}"


def fmt_mib(x):
    return "n/a" if x is None else f"{x / 2**20:.0f}"



# --------------------------------------------------------------------------
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
        path = generate.write_scaling(root, n)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__,
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
    root = os.path.join(out, "codebase")
    build = os.path.join(out, "build")
    tidy_db = os.path.join(out, "tidy")
    for d in (root, build, tidy_db, os.path.join(out, "cache")):
        shutil.rmtree(d, ignore_errors=True)
    tus = generate.generate(root, count, opts.seed)
    entries = generate.compile_commands(root, tus)
    os.makedirs(build)
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    kind_of = dict(tus)
    files = [p for p, _ in tus]
    parse_args = {e["file"]: warpfix_parse_args(e["arguments"], opts.cuda_path,
                                                compat, resource_dir)
                  for e in entries}
    # clang-tidy reads the very command lines the clang parse runs.
    os.makedirs(tidy_db)
    with open(os.path.join(tidy_db, "compile_commands.json"), "w") as f:
        json.dump([{"directory": root, "file": p, "arguments": parse_args[p]}
                   for p in files], f, indent=1)
    needs = {}
    for e in entries:
        needs[e["file"]] = sorted(triggers_in(
            e["file"], user_include_dirs(e["arguments"]), set()))
    full = [p for p in files if needs[p]]
    log(f"bench: {len(files)} TUs in {root} "
        f"({', '.join(f'{k} {sum(1 for _, x in tus if x == k)}' for k in generate.KINDS)}); "
        f"{len(full)} need a full parse")
    if opts.generate_only:
        return 0

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

    # ---- Findings: the whole-code-base runs must agree.
    counts = {}
    canon = {}
    for key, (label, r) in warpfix_runs.items():
        counts[key], canon[key] = findings_of(r, flags["--format=json"])
    compared = [k for k in ("cold", "cold_noshare", "j2", "fill", "warm")
                if k in canon]
    disagree = [k for k in compared if canon[k] != canon["cold"]]
    comparable = all(counts[k] is not None or canon[k] for k in compared)
    if disagree:
        loud.append("FINDINGS DIFFER between the warpfix runs: "
                    + ", ".join(f"{k} ({counts[k]})" for k in disagree)
                    + f" vs cold ({counts['cold']}); they must be identical")
    elif not comparable:
        loud.append("the findings of the warpfix runs could not be compared: "
                    "their output holds neither findings nor a summary")

    # ---- Ratios.
    def ratio(a, b):
        return None if a is None or b is None or b == 0 else a / b

    clang_full = clang.over(full)
    rows = [
        {"ratio": "warpfix cold / clang parse, on files that need a full parse",
         "measure": "CPU", "target": "<= 1.10", "limit": 1.10, "le": True,
         "value": ratio(cold_full.cpu if cold_full else None, clang_full.cpu),
         "wall": ratio(cold_full.wall if cold_full else None, clang_full.wall),
         "missing": None},
        {"ratio": "warpfix cold / clang-tidy, on the whole mixed code base",
         "measure": "CPU", "target": "<= 0.5", "limit": 0.5, "le": True,
         "value": ratio(cold.cpu, tidy.cpu), "wall": ratio(cold.wall, tidy.wall),
         "missing": None},
        {"ratio": "warpfix -j2 / -j1 speed-up",
         "measure": "wall", "target": ">= 1.8", "limit": 1.8, "le": False,
         "value": ratio(cold.wall, j2.wall) if j2 else None,
         "wall": ratio(cold.wall, j2.wall) if j2 else None,
         "missing": None if flags["-j"] else "-j"},
        {"ratio": "warm cache run / cold run",
         "measure": "wall", "target": "<= 0.05", "limit": 0.05, "le": True,
         "value": ratio(warm.wall, cold.wall) if warm else None,
         "wall": ratio(warm.wall, cold.wall) if warm else None,
         "missing": None if flags["--cache-dir"] else "--cache-dir"},
        {"ratio": "peak RSS per worker / clang parse peak RSS",
         "measure": "RSS", "target": "<= 1.2", "limit": 1.2, "le": True,
         "value": ratio(cold.maxrss, clang.maxrss), "wall": None,
         "missing": None},
    ]
    # Issue 18 part 2: shared preambles, on (the default) and off.
    share_missing = None if flags["--no-shared-preambles"] else "--no-shared-preambles"
    rows += [
        {"ratio": "warpfix cold / sum of clang parses, full-parse TUs, shared preambles on",
         "measure": "CPU", "target": "<= 0.4", "limit": 0.4, "le": True,
         "value": ratio(cold_full.cpu if cold_full else None, clang_full.cpu),
         "wall": ratio(cold_full.wall if cold_full else None, clang_full.wall),
         "missing": None},
        {"ratio": "warpfix cold / sum of clang parses, full-parse TUs, shared preambles off",
         "measure": "CPU", "target": "(reference)", "limit": float("inf"), "le": True,
         "value": ratio(cold_full_off.cpu if cold_full_off else None, clang_full.cpu),
         "wall": ratio(cold_full_off.wall if cold_full_off else None, clang_full.wall),
         "missing": share_missing},
        {"ratio": "warpfix cold / sum of clang parses, all TUs, shared preambles on",
         "measure": "CPU", "target": "(reference)", "limit": float("inf"), "le": True,
         "value": ratio(cold.cpu, clang.cpu), "wall": ratio(cold.wall, clang.wall),
         "missing": None},
        {"ratio": "warpfix cold / sum of clang parses, all TUs, shared preambles off",
         "measure": "CPU", "target": "(reference)", "limit": float("inf"), "le": True,
         "value": ratio(cold_off.cpu, clang.cpu) if cold_off else None,
         "wall": ratio(cold_off.wall, clang.wall) if cold_off else None,
         "missing": share_missing},
        {"ratio": "peak RSS per worker, shared preambles on / off",
         "measure": "RSS", "target": "<= 1.05 (the same)", "limit": 1.05, "le": True,
         "value": ratio(cold.maxrss, cold_off.maxrss) if cold_off else None,
         "wall": None, "missing": share_missing},
    ]
    for row in rows:
        v = row["value"]
        if row["missing"]:
            row["status"] = f"n/a (flag {row['missing']} missing)"
        elif v is None:
            row["status"] = "n/a"
        elif row["limit"] == float("inf"):
            row["status"] = "reference"
        else:
            ok = v <= row["limit"] if row["le"] else v >= row["limit"]
            row["status"] = "met" if ok else "NOT MET"

    # ---- Report.
    print()
    print(f"warpfix benchmark: {len(files)} TUs "
          f"({', '.join(f'{k} {sum(1 for _, x in tus if x == k)}' for k in generate.KINDS)}), "
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
        for r in scaling["rows"]:
            if r["failed"]:
                problems.append(f"scaling run of {r['kernels']} kernels failed: "
                                + ", ".join(r["failed"]))
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

    if opts.json:
        result = {
            "meta": {"tus": len(files), "full_parse_tus": len(full),
                     "kinds": {k: sum(1 for _, x in tus if x == k)
                               for k in generate.KINDS},
                     "seed": opts.seed, "warpfix": given,
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
        with open(opts.json, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
