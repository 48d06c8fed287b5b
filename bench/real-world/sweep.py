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
import argparse
import collections
import csv
import datetime
import filecmp
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

LEGACY_NAMES = ("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                "__ballot", "__any", "__all")
LEGACY_RE = re.compile(r"(?<![A-Za-z0-9_$])(__shfl_up|__shfl_down|__shfl_xor|__shfl|"
                       r"__ballot|__any|__all)\s*\(")
EXPRESSION_KEYWORDS = {"return", "else", "do", "case", "throw", "co_return", "co_yield", "co_await",
                       "and", "or", "not", "xor", "bitand", "bitor", "compl", "not_eq", "and_eq",
                       "or_eq", "xor_eq"}
DEFINE_RE = re.compile(r"^\s*#\s*define\s+(__shfl_up|__shfl_down|__shfl_xor|__shfl|"
                       r"__ballot|__any|__all)\s*\(")
# shfl.<mode>... or vote.<mode>... in PTX text, not followed by .sync
PTX_RE = re.compile(r"(?<![A-Za-z0-9_])(shfl|vote)\.(?!sync\b)([a-z0-9_.]*)")
SOURCE_EXTS = (".cu", ".cuh", ".h", ".hpp", ".hxx", ".hh", ".inl", ".inc", ".cpp",
               ".cc", ".cxx", ".c")
DIAG_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>fatal error|error): (?P<msg>.*)$")
INCLUDED_RE = re.compile(r"^(?:In file included from|\s+from) (?P<file>.+?):(?P<line>\d+)[:,]")
CHECKS_SHORT = collections.OrderedDict([
    ("warp-legacy-intrinsic", "legacy"),
    ("warp-activemask-mask", "amask"),
    ("warp-full-mask-divergent", "fullmask"),
    ("warp-missing-syncwarp", "syncwarp"),
])


# --------------------------------------------------------------------------
# small helpers

def norm_key(k):
    return re.sub(r"[^a-z0-9]", "", str(k).lower())


def pick(d, *names):
    """The value of the first key of d whose normalised form is in names."""
    if not isinstance(d, dict):
        return None
    want = [norm_key(n) for n in names]
    keys = {norm_key(k): k for k in d}
    for w in want:
        if w in keys:
            return d[keys[w]]
    return None


def as_int(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, list):
        return len(v)
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def real(p):
    try:
        return os.path.realpath(p)
    except (OSError, ValueError):
        return p


def rel(p, root):
    try:
        r = os.path.relpath(real(p), real(root))
    except ValueError:
        return p
    return p if r.startswith("..") else r


# --------------------------------------------------------------------------
# running warpfix

class RunResult:
    def __init__(self):
        self.cmd = []
        self.rc = None          # exit status, or -signal
        self.status = None      # ok | findings | errors | crashed | timeout | bad-output | not-run
        self.signal = None
        self.wall = 0.0
        self.stdout = ""
        self.stderr = ""
        self.report = None      # parsed JSON
        self.csv = None         # parsed --stats=csv rows


def run_warpfix(cmd, timeout, cwd=None):
    r = RunResult()
    r.cmd = cmd
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, cwd=cwd, start_new_session=True)
    except OSError as e:
        r.status = "not-run"
        r.stderr = "cannot start %s: %s" % (cmd[0], e)
        return r
    try:
        out, err = p.communicate(timeout=timeout)
        r.rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            p.kill()
        out, err = p.communicate()
        r.rc = None
        r.status = "timeout"
    r.wall = time.monotonic() - t0
    r.stdout = out.decode("utf-8", "replace")
    r.stderr = err.decode("utf-8", "replace")
    if r.status == "timeout":
        return r
    if r.rc is not None and (r.rc < 0 or r.rc >= 128):
        r.signal = -r.rc if r.rc < 0 else r.rc - 128
        r.status = "crashed"
        return r
    try:
        r.report = json.loads(r.stdout) if r.stdout.strip() else None
    except ValueError:
        r.report = None
    if not isinstance(r.report, dict) or not isinstance(r.report.get("findings"), list):
        r.report = None
        r.status = "bad-output"
    elif r.rc == 0:
        r.status = "ok"
    elif r.rc == 1:
        r.status = "findings"
    elif r.rc == 2:
        r.status = "errors"
    else:
        r.status = "rc%d" % r.rc
    r.csv = parse_stats_csv(r.stderr)
    return r


def parse_stats_csv(text):
    """The --stats=csv table: the lines after the last 'check,counter,reason,count'."""
    lines = text.splitlines()
    start = None
    for i, line in enumerate(lines):
        if line.strip() == "check,counter,reason,count":
            start = i + 1
    if start is None:
        return None
    rows = []
    for row in csv.reader(io.StringIO("\n".join(lines[start:]))):
        if len(row) != 4:
            break
        try:
            rows.append((row[0], row[1], row[2], int(row[3])))
        except ValueError:
            break
    return rows


def strip_templates(name):
    """'ns::A<x<y>>::f(int) const' -> 'ns::A::f'."""
    out, depth = [], 0
    for ch in name:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    t = "".join(out)
    t = re.sub(r"\(anonymous namespace\)", "(anon)", t)
    i = t.find("(")
    while i >= 0 and t[:i].endswith("(anon"):
        i = t.find("(", i + 1)
    return (t[:i] if i > 0 else t).strip()


def crash_info(stderr):
    """Where a crash happened, from LLVM's stack dump.

    frames: the symbolised frames; stage: the 'N. ...' lines of the dump
    (program arguments, parser position, AST matcher node); top: the first
    frame after the signal handler; in_warpfix: the first frame in warpfix's
    own code; signature: both, without template arguments or parameters, to
    group crashes by root cause."""
    lines = stderr.splitlines()
    info = {"frames": [], "stage": [], "top": None, "in_warpfix": None, "signature": None}
    in_dump = False
    for line in lines:
        s = line.strip()
        if s.startswith("Stack dump:"):
            in_dump = True
            continue
        if re.match(r"^#(\d+)\s+0x[0-9a-f]+", s):
            info["frames"].append(s)
            in_dump = False
            continue
        if in_dump and s:
            info["stage"].append(s[:400])
    bodies = [re.sub(r"^#\d+\s+0x[0-9a-f]+\s*", "", f) for f in info["frames"]]
    start = 0
    for i, b in enumerate(bodies[:8]):
        if "libc.so" in b or "__restore_rt" in b or "SignalHandler" in b or "PrintStackTrace" in b:
            start = i + 1
    for b in bodies[start:]:
        if info["top"] is None:
            info["top"] = b[:300]
        if strip_templates(b).startswith("warpfix::") and info["in_warpfix"] is None:
            info["in_warpfix"] = b[:300]
            break
    parts = [strip_templates(x) for x in (info["top"], info["in_warpfix"]) if x]
    if len(parts) == 2 and parts[0] == parts[1]:
        parts = parts[:1]
    info["signature"] = " <- ".join(parts) if parts else None
    info["stage"] = info["stage"][:12]
    info["frames"] = info["frames"][:40]
    return info


def clang_errors(stderr, tus):
    """Errors clang printed, each attributed to the translation unit it came from.

    Relies on the errors of one unit coming out together (warpfix keeps the
    order whatever -j): an error located in a .cu file, or the outermost
    'In file included from' line before it, names the unit."""
    tu_set = {real(t) for t in tus}
    out = []
    current = None
    pending_chain = []
    for line in stderr.splitlines():
        m = INCLUDED_RE.match(line)
        if m:
            pending_chain.append(m.group("file"))
            continue
        m = DIAG_RE.match(line)
        if m:
            f = real(m.group("file"))
            if pending_chain:
                outer = real(pending_chain[0])
                if outer in tu_set:
                    current = outer
            elif f in tu_set:
                current = f
            pending_chain = []
            out.append({"tu": current, "file": m.group("file"), "line": int(m.group("line")),
                        "kind": m.group("kind"), "message": m.group("msg")})
            continue
        if re.match(r"^\S+:\d+:\d+: (warning|note|remark): ", line):
            pending_chain = []
        elif not line.startswith(" "):
            pending_chain = [] if not line.startswith("In file included") else pending_chain
    return out


def error_class(msg):
    """Clang's message with the names in it elided, so that one cause counts once."""
    m = re.sub(r"'[^']*'", "'…'", msg)
    m = re.sub(r"\b\d+\b", "N", m)
    return m[:200]


# --------------------------------------------------------------------------
# grep of the sources

def strip_comments(text, keep_strings):
    """text with comments (and, unless keep_strings, string contents) blanked.

    Newlines are kept, so line numbers do not move."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and (text[i - 1].isalnum()))):
            q = c
            j = i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if keep_strings and q == '"':
                out.append(text[i:j])
            else:
                out.append(q + " " * max(0, j - i - 2) + (q if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


VERSION_MACRO_RE = re.compile(r"__CUDACC_VER|CUDA_VERSION|CUDART_VERSION|__CUDACC_RTC__|THRUST_VERSION|CUB_VERSION")
ARCH_MACRO_RE = re.compile(r"__CUDA_ARCH__|CUB_PTX_ARCH")


def conditional_context(code_lines):
    """For each line (1-based index), the kinds of preprocessor conditions around it:
    'version' (a toolkit or compiler version test) and/or 'arch' (__CUDA_ARCH__).

    Tells apart a legacy call that only an old toolkit or architecture compiles from one in
    code every build sees. Conditions are not evaluated: #if, #elif and #else all count."""
    out = [frozenset()]
    stack = []
    joined = ""
    for raw in code_lines:
        line = joined + raw
        joined = line[:-1] if line.endswith("\\") else ""
        m = re.match(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", line)
        if m and not joined:
            kw, cond = m.group(1), m.group(2)
            kinds = set()
            if VERSION_MACRO_RE.search(cond):
                kinds.add("version")
            if ARCH_MACRO_RE.search(cond):
                kinds.add("arch")
            if kw in ("if", "ifdef", "ifndef"):
                stack.append(kinds)
            elif kw == "elif" and stack:
                stack[-1] = stack[-1] | kinds
            elif kw == "endif" and stack:
                stack.pop()
        cur = set()
        for k in stack:
            cur |= k
        out.append(frozenset(cur))
    return out


def grep_sites(files):
    """Legacy call sites and PTX sites in files: lists of (file, line, text, kinds), kinds the
    preprocessor conditions around the site (conditional_context)."""
    legacy, ptx, defines, declarations = [], [], [], []
    for f in files:
        try:
            with open(f, "rb") as fh:
                raw = fh.read()
        except OSError:
            continue
        if b"\0" in raw[:4096]:
            continue
        text = raw.decode("utf-8", "replace")
        if not any(n in text for n in ("__shfl", "__ballot", "__any", "__all", "shfl.", "vote.")):
            continue
        code = strip_comments(text, keep_strings=False)
        code_lines = code.split("\n")
        context = conditional_context(code_lines)
        for m in LEGACY_RE.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            src = code_lines[line - 1]
            if DEFINE_RE.match(src) and DEFINE_RE.match(src).group(1) == m.group(1):
                defines.append((f, line, m.group(1), context[line]))
                continue
            # A type or specifier before the name declares it (a project's own
            # `uint4 __shfl(uint4, int)`): not a call site, as warpfix reads it.
            before = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", code[max(0, m.start() - 200):m.start()])
            if before and code[m.start() - 1:m.start()].isspace() and \
                    before.group(1) not in EXPRESSION_KEYWORDS:
                declarations.append((f, line, m.group(1), context[line]))
                continue
            legacy.append((f, line, m.group(1), context[line]))
        with_strings = strip_comments(text, keep_strings=True)
        for lit in re.finditer(r'"(?:[^"\\\n]|\\.)*"', with_strings):
            for m in PTX_RE.finditer(lit.group(0)):
                line = with_strings.count("\n", 0, lit.start() + m.start()) + 1
                ptx.append((f, line, m.group(0), context[line]))
    return legacy, ptx, defines, declarations


def walk(root, exts):
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(exts):
                yield os.path.join(d, name)


# --------------------------------------------------------------------------
# one project

def project_args(p, root, defaults, warpfix_extra, cflags=()):
    # None: warpfix's own default, every architecture nvcc 13 compiles for,
    # as a user who names none gets it.
    arch = p.get("arch") or defaults.get("arch")
    flags = []
    for inc in p.get("include", []):
        flags.append("-I" + (inc if os.path.isabs(inc) else os.path.normpath(os.path.join(root, inc))))
    for inc in p.get("isystem", []):
        flags += ["-isystem", inc if os.path.isabs(inc) else os.path.normpath(os.path.join(root, inc))]
    for d in p.get("defines", []):
        flags.append("-D" + d)
    for u in p.get("undefines", []):
        flags.append("-U" + u)
    std = p.get("std") or defaults.get("std")
    if std:
        flags.append("-std=" + std)
    flags += [a.replace("{root}", root) for a in p.get("extra_args", [])]
    flags += list(cflags)
    tool = (["--cuda-gpu-arch=" + arch] if arch else []) + list(warpfix_extra) + list(p.get("warpfix_args", []))
    return tool, flags


def source_paths(p, root):
    return [os.path.normpath(os.path.join(root, s)) for s in p.get("sources", ["."])]


def tus_of(paths):
    tus = []
    for s in paths:
        if os.path.isdir(s):
            tus += list(walk(s, (".cu",)))
        elif os.path.exists(s):
            tus.append(s)
    return sorted(set(tus))


def findings_of(report):
    return [f for f in (report or {}).get("findings", []) if isinstance(f, dict)]


def tu_statuses_from_report(report, tus, skipped_count):
    """clean / errors / failed / crashed per TU from one run's JSON.

    Reads the fields today's warpfix has (failedFiles) and the ones issue 14
    adds, whatever they end up being called, where present."""
    st = {}
    failed = {real(f) for f in (pick(report, "failedFiles", "notAnalysedFiles",
                                      "unanalysedFiles") or []) if isinstance(f, str)}
    with_errors = set()
    crashed = set()
    for key in report or {}:
        v = report[key]
        if not isinstance(v, list):
            continue
        nk = norm_key(key)
        names = [x if isinstance(x, str) else (pick(x, "file", "path") if isinstance(x, dict) else None)
                 for x in v]
        names = {real(x) for x in names if isinstance(x, str)}
        if "crash" in nk:
            crashed |= names
        elif ("witherror" in nk or "partial" in nk or "recovered" in nk) and "fail" not in nk:
            with_errors |= names
    for t in tus:
        rt = real(t)
        if rt in crashed:
            st[t] = "crashed"
        elif rt in failed:
            st[t] = "failed"
        elif rt in with_errors:
            st[t] = "errors"
        else:
            st[t] = "clean"
    return st


def summarise_tus(statuses, report_summary, n_skipped):
    c = collections.Counter(statuses.values())
    out = {"tus": len(statuses), "clean": c["clean"], "errors": c["errors"],
           "failed": c["failed"], "crashed": c["crashed"], "timeout": c["timeout"],
           "bad_output": c["bad-output"], "skipped": n_skipped or 0}
    # Counts the summary states, where a newer warpfix gives them, win over ours
    s = report_summary or {}
    for ours, theirs in (("errors", ("analysedWithErrors", "withErrors", "translationUnitsWithErrors")),
                         ("crashed", ("crashed", "crashedTranslationUnits", "crashedFiles"))):
        v = as_int(pick(s, *theirs))
        if v is not None and v > out[ours] and ours in ("errors", "crashed"):
            moved = min(v - out[ours], out["clean"])
            out["clean"] -= moved
            out[ours] += moved
    # skipped units are counted apart: they had nothing to analyse
    out["clean"] = max(0, out["clean"] - out["skipped"])
    return out


def stats_from_csv(rows):
    per_check = collections.OrderedDict()
    reasons = collections.Counter()
    extra = {}
    for check, counter, reason, count in rows or []:
        if check == "total":
            if counter == "unfixable" and reason:
                reasons[reason] += count
            elif counter in ("findings", "fixed", "fixable", "unfixable") and not reason:
                per_check.setdefault("total", {})[counter] = count
            elif not reason:
                extra[counter] = count
            continue
        if not reason:
            per_check.setdefault(check, {})[counter] = count
    return per_check, reasons, extra


REASON_CUT = re.compile(r"[,;:]| \(")


def refused_for_unit_errors(reason):
    """Whether a refusal rests on clang's errors in the unit, not on the code."""
    return (reason.startswith("this translation unit has") or
            "clang reported errors here" in reason)


def reason_group(text):
    """What warpfix's --stats does to a reason (docs/ci.md, Statistics), for runs
    whose CSV was lost: cut at the first , ; : or ' (' and quoted names elided."""
    m = REASON_CUT.search(text)
    t = text[:m.start()] if m else text
    return re.sub(r"'[^']*'", "'...'", t).strip()


def run_project(p, args, defaults, out_dir):
    root = os.path.join(args.corpus, p["name"])
    res = collections.OrderedDict()
    res["name"] = p["name"]
    res["repository"] = p["repository"]
    res["commit"] = p["commit"]
    if not os.path.isdir(root):
        res["status"] = "missing"
        res["note"] = "no checkout at %s (run prepare.py)" % root
        return res
    tool_args, flags = project_args(p, root, defaults, args.warpfix_arg, args.cflag)
    srcs = [s for s in source_paths(p, root) if os.path.exists(s)]
    tus = tus_of(srcs)
    res["sources"] = [rel(s, root) for s in srcs]
    res["flags"] = [f.replace(root, "{root}") for f in flags]
    base = [args.warpfix, "--format=json", "--stats=csv", "--no-cache",
            "-j", str(args.jobs), "--quiet"] + tool_args
    pdir = os.path.join(out_dir, p["name"]) if out_dir else None
    if pdir:
        os.makedirs(pdir, exist_ok=True)

    def save(tag, r):
        if not pdir:
            return
        with open(os.path.join(pdir, tag + ".stdout"), "w") as f:
            f.write(r.stdout)
        with open(os.path.join(pdir, tag + ".stderr"), "w") as f:
            f.write(r.stderr)
        with open(os.path.join(pdir, tag + ".cmd"), "w") as f:
            f.write(" ".join(shlex_quote(a) for a in r.cmd) + "\n")

    # ---- check pass
    t0 = time.monotonic()
    whole = run_warpfix(base + srcs + ["--"] + flags, args.timeout)
    save("check", whole)
    res["check_run"] = {"status": whole.status, "rc": whole.rc, "signal": whole.signal,
                        "wall_s": round(whole.wall, 1)}
    statuses = {}
    findings = []
    csv_rows = whole.csv
    errors = []
    crashes = []
    per_file = False
    skipped = None
    summary = None
    if whole.status in ("ok", "findings", "errors"):
        findings = findings_of(whole.report)
        summary = whole.report.get("summary")
        skipped = as_int(pick(summary, "skippedTranslationUnits"))
        statuses = tu_statuses_from_report(whole.report, tus, skipped)
        errors = clang_errors(whole.stderr, tus)
        for c in (pick(whole.report, "crashes", "crashedFiles", "crashedTranslationUnits") or []):
            crashes.append({"tu": c if isinstance(c, str) else pick(c, "file", "path"),
                            "how": "contained by warpfix", "detail": c})
    else:
        per_file = args.per_file != "never"
        if whole.status == "crashed":
            crashes.append({"tu": None, "how": "whole run, signal %s" % whole.signal,
                            "info": crash_info(whole.stderr)})
    if args.per_file == "always":
        per_file = True
    if per_file:
        findings, statuses, errors, skipped, csv_rows, file_crashes = run_per_file(
            base, flags, tus, args, pdir, root)
        crashes += file_crashes
    res["check_wall_s"] = round(time.monotonic() - t0, 1)
    res["per_file"] = per_file
    res["tu_status"] = summarise_tus(statuses, summary, skipped)
    res["tu_files"] = {rel(t, root): s for t, s in sorted(statuses.items()) if s != "clean"}
    res["crashes"] = crashes

    # ---- findings
    if pdir:
        with open(os.path.join(pdir, "findings.json"), "w") as f:
            json.dump(findings, f, indent=1, sort_keys=True)
    by_check = collections.Counter(f.get("check", "?") for f in findings)
    res["findings"] = sum(by_check.values())
    res["findings_by_check"] = dict(sorted(by_check.items()))
    res["fixable"] = sum(1 for f in findings if f.get("fixable") or f.get("fix"))
    reasons = collections.Counter()
    if csv_rows is not None and not per_file:
        _, reasons, _ = stats_from_csv(csv_rows)
        res["reasons_from"] = "--stats=csv"
    else:
        for f in findings:
            if not (f.get("fixable") or f.get("fix")):
                r = f.get("noFixReason")
                reasons[reason_group(r) if r else "(no reason given)"] += 1
        res["reasons_from"] = "noFixReason (per-file runs)" if per_file else "noFixReason"
    res["unfixable"] = sum(reasons.values())
    res["unfixable_by_reason"] = dict(reasons.most_common())
    # Issue 15 asks for the fixed share "in analysed translation units": a
    # finding refused because clang could not read its unit fully is counted
    # apart, as are the legacy calls and PTX on their own.
    def fixable(f):
        return bool(f.get("fixable") or f.get("fix"))
    blamed_on_errors = [f for f in findings if not fixable(f) and
                        refused_for_unit_errors(f.get("noFixReason") or "")]
    legacy = [f for f in findings if f.get("check", "").startswith("warp-legacy")]
    res["refused_for_unit_errors"] = len(blamed_on_errors)
    res["legacy_findings"] = len(legacy)
    res["legacy_fixable"] = sum(1 for f in legacy if fixable(f))

    # ---- clang's errors, by class
    classes = collections.OrderedDict()
    for e in errors:
        k = ("fatal: " if e["kind"] == "fatal error" else "") + error_class(e["message"])
        c = classes.setdefault(k, {"errors": 0, "tus": set(), "example": None,
                                   "messages": collections.Counter()})
        c["errors"] += 1
        c["messages"][e["message"][:200]] += 1
        if e["tu"]:
            c["tus"].add(e["tu"])
        if c["example"] is None:
            c["example"] = "%s:%d: %s" % (rel(e["file"], root), e["line"], e["message"])
    failed_tus = {real(t) for t, s in statuses.items() if s == "failed"}
    res["error_classes"] = sorted(
        [{"class": k, "errors": v["errors"], "tus": len(v["tus"]),
          "failed_tus": len({real(t) for t in v["tus"]} & failed_tus), "example": v["example"],
          "messages": dict(v["messages"].most_common(8))}
         for k, v in classes.items()], key=lambda x: (-x["failed_tus"], -x["errors"], x["class"]))

    # ---- grep
    files = sorted(set(f for s in srcs for f in (walk(s, SOURCE_EXTS) if os.path.isdir(s) else [s])))
    legacy, ptx, defines, declarations = grep_sites(files)
    at = collections.defaultdict(set)
    for f in findings:
        if isinstance(f.get("file"), str) and isinstance(f.get("line"), int):
            at[(real(f["file"]), f["line"])].add(f.get("check", ""))
    def covered(site, legacy_only):
        checks = at.get((real(site[0]), site[1]), set())
        return any(c.startswith("warp-legacy") for c in checks) if legacy_only else bool(checks)
    failed_or_crashed = {real(t) for t, s in statuses.items() if s != "clean"}
    res["legacy_sites"] = len(legacy)
    res["legacy_sites_found"] = sum(1 for s in legacy if covered(s, True))
    res["legacy_sites_in_unanalysed_tus"] = sum(1 for s in legacy if real(s[0]) in failed_or_crashed)
    res["legacy_sites_by_name"] = dict(collections.Counter(s[2] for s in legacy).most_common())
    for kind in ("version", "arch"):
        under = [s for s in legacy if kind in s[3]]
        res["legacy_sites_under_%s_if" % kind] = len(under)
        res["legacy_sites_under_%s_if_found" % kind] = sum(1 for s in under if covered(s, True))
    res["legacy_defines"] = len(defines)
    res["legacy_declarations"] = len(declarations)
    res["ptx_sites"] = len(ptx)
    res["ptx_sites_found"] = sum(1 for s in ptx if covered(s, False))
    res["missed_legacy_sites"] = ["%s:%d: %s%s" % (rel(s[0], root), s[1], s[2],
                                                   " [#if %s]" % "+".join(sorted(s[3])) if s[3] else "")
                                  for s in legacy if not covered(s, True)]
    res["missed_ptx_sites"] = ["%s:%d: %s" % (rel(s[0], root), s[1], s[2])
                               for s in ptx if not covered(s, False)]

    # ---- fix pass
    res["fixed"] = None
    if not args.no_fix:
        res.update(fix_pass(p, args, defaults, base, tus, statuses, root, pdir))
    res["wall_s"] = round(time.monotonic() - t0, 1)
    res["status"] = "done"
    return res


def ere_escape(text):
    """text as a literal in the POSIX extended regex that --header-filter takes."""
    return re.sub(r"([.\[\](){}*+?|^$\\])", r"\\\1", text)


def shlex_quote(a):
    return a if re.match(r"^[A-Za-z0-9_@%+=:,./-]+$", a) else "'" + a.replace("'", "'\\''") + "'"


def run_per_file(base, flags, tus, args, pdir, root):
    """Every TU alone: for a whole run that crashed, timed out or printed garbage."""
    findings = {}
    statuses = {}
    errors = []
    crashes = []
    csv_rows = []
    skipped = 0
    for i, t in enumerate(tus):
        # headers under the project's sources stay visible as in the whole run
        r = run_warpfix(base + ["--header-filter=^" + ere_escape(real(root)) + "/", t, "--"] + flags,
                        args.file_timeout)
        tag = "file-%03d" % i
        if r.status in ("crashed", "timeout", "bad-output") and pdir:
            with open(os.path.join(pdir, tag + ".stderr"), "w") as f:
                f.write(r.stderr)
            with open(os.path.join(pdir, tag + ".cmd"), "w") as f:
                f.write(" ".join(shlex_quote(a) for a in r.cmd) + "\n")
        if r.status in ("ok", "findings", "errors"):
            for f in findings_of(r.report):
                key = (f.get("check"), f.get("file"), f.get("offset"), f.get("message"))
                findings.setdefault(key, f)
            st = tu_statuses_from_report(r.report, [t], None)
            # The report lists no unit with errors by name; for one unit
            # its summary says.
            if st[t] == "clean" and (as_int(pick(r.report.get("summary"),
                                                  "translationUnitsWithErrors")) or 0):
                st[t] = "errors"
            statuses[t] = st[t]
            errors += clang_errors(r.stderr, [t])
            sk = as_int(pick(r.report.get("summary"), "skippedTranslationUnits")) or 0
            skipped += sk
        elif r.status == "crashed":
            statuses[t] = "crashed"
            crashes.append({"tu": rel(t, root), "how": "signal %s" % r.signal,
                            "rc": r.rc, "info": crash_info(r.stderr),
                            "command": " ".join(shlex_quote(a) for a in r.cmd)})
        else:
            statuses[t] = r.status if r.status in ("timeout", "bad-output") else "failed"
            crashes.append({"tu": rel(t, root), "how": r.status,
                            "command": " ".join(shlex_quote(a) for a in r.cmd)})
    return list(findings.values()), statuses, errors, skipped, None, crashes


def fix_pass(p, args, defaults, base, tus, statuses, root, pdir):
    """--fix on a scratch copy; the units that crashed alone are left out."""
    out = {}
    scratch_root = args.scratch or tempfile.mkdtemp(prefix="warpfix-sweep-")
    copy = os.path.join(scratch_root, p["name"])
    if os.path.exists(copy):
        shutil.rmtree(copy)
    t0 = time.monotonic()
    try:
        shutil.copytree(root, copy, symlinks=True)
    except (OSError, shutil.Error) as e:
        out["fix_run"] = {"status": "not-run", "note": "copy failed: %s" % e}
        return out
    tool_args, flags = project_args(p, copy, defaults, args.warpfix_arg, args.cflag)
    srcs = [s for s in source_paths(p, copy) if os.path.exists(s)]
    bad = {os.path.relpath(t, root) for t, s in statuses.items() if s in ("crashed", "timeout", "bad-output")}
    fix_base = [a for a in base if a != "--format=json"] + ["--format=json", "--fix"]
    if bad:
        files = [os.path.join(copy, os.path.relpath(t, root)) for t in tus
                 if os.path.relpath(t, root) not in bad]
        if not files:
            out["fix_run"] = {"status": "nothing-to-run", "left_out": sorted(bad)}
            out["fixed"] = 0
            shutil.rmtree(copy, ignore_errors=True)
            return out
        cmd = fix_base + ["--header-filter=^" + ere_escape(real(copy)) + "/"] + files + ["--"] + flags
    else:
        cmd = fix_base + srcs + ["--"] + flags
    r = run_warpfix(cmd, args.timeout)
    if pdir:
        with open(os.path.join(pdir, "fix.stdout"), "w") as f:
            f.write(r.stdout)
        with open(os.path.join(pdir, "fix.stderr"), "w") as f:
            f.write(r.stderr)
        with open(os.path.join(pdir, "fix.cmd"), "w") as f:
            f.write(" ".join(shlex_quote(a) for a in r.cmd) + "\n")
    out["fix_run"] = {"status": r.status, "rc": r.rc, "signal": r.signal,
                      "wall_s": round(r.wall, 1), "left_out": sorted(bad)}
    if r.status == "crashed":
        out["fix_run"]["crash"] = crash_info(r.stderr)
    if r.report is not None:
        s = r.report.get("summary") or {}
        out["fixed"] = as_int(pick(s, "fixed"))
        if out["fixed"] is None:
            out["fixed"] = sum(1 for f in findings_of(r.report) if f.get("fixed"))
        out["fix_errors"] = [e for e in r.report.get("errors", []) if isinstance(e, str)][:20]
    # which files changed
    changed = []
    for d, dirs, names in os.walk(copy):
        for n in names:
            a = os.path.join(d, n)
            b = os.path.join(root, os.path.relpath(a, copy))
            if os.path.islink(a):
                continue
            try:
                same = os.path.exists(b) and filecmp.cmp(a, b, shallow=False)
            except OSError:
                same = False
            if not same:
                changed.append(os.path.relpath(a, copy))
    out["files_changed"] = sorted(changed)
    if pdir and changed:
        with open(os.path.join(pdir, "fix.diff"), "w") as f:
            for c in sorted(changed):
                d = subprocess.run(["diff", "-u", "--label", "a/" + c, "--label", "b/" + c,
                                    os.path.join(root, c), os.path.join(copy, c)],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                f.write(d.stdout.decode("utf-8", "replace"))
    # a second run on the fixed copy: what is left, and whether the fix made new findings
    if args.recheck and r.report is not None and out.get("fixed"):
        rr = run_warpfix([a for a in cmd if a != "--fix"], args.timeout)
        if pdir:
            with open(os.path.join(pdir, "recheck.stdout"), "w") as f:
                f.write(rr.stdout)
            with open(os.path.join(pdir, "recheck.stderr"), "w") as f:
                f.write(rr.stderr)
        before = collections.Counter(f.get("check") for f in findings_of(r.report) if not f.get("fixed"))
        after = collections.Counter(f.get("check") for f in findings_of(rr.report))
        out["recheck"] = {"status": rr.status, "remaining": sum(after.values()),
                          "expected_remaining": sum(before.values()),
                          "new_by_check": {k: after[k] - before[k] for k in after if after[k] > before[k]}}
    # the fixed .cu files through nvcc, where asked
    if args.nvcc and changed:
        out["nvcc"] = nvcc_check(args, p, copy, root, flags, changed, pdir)
    out["fix_wall_s"] = round(time.monotonic() - t0, 1)
    if not args.keep_scratch:
        shutil.rmtree(copy, ignore_errors=True)
        if not args.scratch:
            shutil.rmtree(scratch_root, ignore_errors=True)
    return out


def nvcc_check(args, p, copy, root, flags, changed, pdir):
    """Compile each changed .cu (fixed copy) and the same file before the fix.

    What counts is a difference: fixed fails where the original passed, or
    errors that name a warp intrinsic."""
    res = {"compiled": 0, "ok": 0, "failed": 0, "warp_errors": 0, "files": {}}
    nflags = [f for f in flags if f.startswith(("-I", "-D", "-U", "-std="))]
    # A changed header is compiled through the .cu files that name it in an #include.
    targets = [c for c in changed if c.endswith(".cu")]
    headers = [os.path.basename(c) for c in changed if not c.endswith(".cu")]
    if headers:
        pat = re.compile(r'^\s*#\s*include\s*[<"](?:[^>"]*/)?(%s)[>"]' %
                         "|".join(re.escape(h) for h in headers), re.M)
        for d, dirs, names in os.walk(copy):
            for n in names:
                if not n.endswith(".cu"):
                    continue
                r = os.path.relpath(os.path.join(d, n), copy)
                if r in targets:
                    continue
                try:
                    with open(os.path.join(d, n), errors="replace") as fh:
                        if pat.search(fh.read()):
                            targets.append(r)
                except OSError:
                    pass
    for c in targets:
        rows = {}
        for tag, base_dir in (("fixed", copy), ("original", root)):
            f = os.path.join(base_dir, c)
            cmd = [args.nvcc, "-arch=sm_90", "-c", "-o", os.devnull, f] + \
                  [x.replace(copy, base_dir) for x in nflags]
            try:
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   timeout=args.file_timeout, cwd=os.path.dirname(f))
                errs = [l for l in r.stderr.decode("utf-8", "replace").splitlines() if " error" in l]
                rows[tag] = {"rc": r.returncode, "errors": len(errs), "first": errs[0][:300] if errs else None,
                             "warp": sum(1 for l in errs if re.search(r"__shfl|__ballot|__any|__all|_sync|__activemask|mask", l))}
            except subprocess.TimeoutExpired:
                rows[tag] = {"rc": None, "errors": None, "first": "timeout", "warp": 0}
        res["compiled"] += 1
        if rows["fixed"]["rc"] == 0:
            res["ok"] += 1
        else:
            res["failed"] += 1
        res["warp_errors"] += rows["fixed"]["warp"] or 0
        res["files"][c] = rows
    return res


# --------------------------------------------------------------------------
# output

COLUMNS = [
    ("project", lambda r: r["name"], "<"),
    ("TUs", lambda r: r["tu_status"]["tus"], ">"),
    ("clean", lambda r: r["tu_status"]["clean"], ">"),
    ("w/err", lambda r: r["tu_status"]["errors"], ">"),
    ("failed", lambda r: r["tu_status"]["failed"], ">"),
    ("crash", lambda r: r["tu_status"]["crashed"] + r["tu_status"]["timeout"] + r["tu_status"]["bad_output"], ">"),
    ("skip", lambda r: r["tu_status"]["skipped"], ">"),
    ("run", lambda r: short_run(r), "<"),
    ("find", lambda r: r["findings"], ">"),
    ("legacy", lambda r: r["findings_by_check"].get("warp-legacy-intrinsic", 0), ">"),
    ("amask", lambda r: r["findings_by_check"].get("warp-activemask-mask", 0), ">"),
    ("fullm", lambda r: r["findings_by_check"].get("warp-full-mask-divergent", 0), ">"),
    ("syncw", lambda r: r["findings_by_check"].get("warp-missing-syncwarp", 0), ">"),
    ("other", lambda r: sum(v for k, v in r["findings_by_check"].items() if k not in CHECKS_SHORT), ">"),
    ("fixable", lambda r: r["fixable"], ">"),
    ("fixed", lambda r: "-" if r.get("fixed") is None else r["fixed"], ">"),
    ("unfix", lambda r: r["unfixable"], ">"),
    ("sites", lambda r: r["legacy_sites"], ">"),
    ("found", lambda r: r["legacy_sites_found"], ">"),
    ("ptx", lambda r: r["ptx_sites"], ">"),
    ("ptxf", lambda r: r["ptx_sites_found"], ">"),
    ("wall s", lambda r: "%.0f" % r.get("wall_s", 0), ">"),
]


def short_run(r):
    s = r.get("check_run", {}).get("status", "?")
    if s == "crashed":
        s = "SIG%s" % r["check_run"].get("signal")
    fr = r.get("fix_run", {}).get("status")
    if fr == "crashed":
        s += "/fixSIG%s" % r["fix_run"].get("signal")
    elif fr in ("timeout", "bad-output", "not-run"):
        s += "/fix-" + fr
    return s


def share(part, whole):
    return "%d/%d (%.1f%%)" % (part, whole, 100.0 * part / whole) if whole else "0/0"


def totals(rows):
    t = {"name": "TOTAL", "tu_status": collections.Counter(), "findings": 0,
         "findings_by_check": collections.Counter(), "fixable": 0, "fixed": 0,
         "unfixable": 0, "refused_for_unit_errors": 0, "legacy_findings": 0,
         "legacy_fixable": 0, "legacy_sites": 0, "legacy_sites_found": 0,
         "legacy_sites_in_unanalysed_tus": 0, "ptx_sites": 0, "ptx_sites_found": 0,
         "legacy_sites_under_version_if": 0, "legacy_sites_under_version_if_found": 0,
         "legacy_sites_under_arch_if": 0, "legacy_sites_under_arch_if_found": 0,
         "wall_s": 0.0, "unfixable_by_reason": collections.Counter(),
         "check_run": {"status": ""}, "projects": 0, "projects_crashed": 0,
         "status": "done"}
    for r in rows:
        if r.get("status") != "done":
            continue
        t["projects"] += 1
        if r["check_run"]["status"] == "crashed":
            t["projects_crashed"] += 1
        t["tu_status"].update(r["tu_status"])
        for k in ("findings", "fixable", "unfixable", "refused_for_unit_errors",
                  "legacy_findings", "legacy_fixable", "legacy_sites", "legacy_sites_found",
                  "legacy_sites_in_unanalysed_tus", "ptx_sites", "ptx_sites_found",
                  "legacy_sites_under_version_if", "legacy_sites_under_version_if_found",
                  "legacy_sites_under_arch_if", "legacy_sites_under_arch_if_found"):
            t[k] += r.get(k, 0)
        t["fixed"] += r.get("fixed") or 0
        t["wall_s"] += r.get("wall_s", 0)
        t["findings_by_check"].update(r["findings_by_check"])
        t["unfixable_by_reason"].update(r["unfixable_by_reason"])
    t["tu_status"] = dict(t["tu_status"])
    for k in ("tus", "clean", "errors", "failed", "crashed", "timeout", "bad_output", "skipped"):
        t["tu_status"].setdefault(k, 0)
    t["findings_by_check"] = dict(t["findings_by_check"])
    t["unfixable_by_reason"] = dict(t["unfixable_by_reason"].most_common())
    t["check_run"]["status"] = "%d/%d crashed" % (t["projects_crashed"], t["projects"])
    ts = t["tu_status"]
    parsed = ts["tus"] - ts["skipped"]
    t["analysed_pct"] = round(100.0 * (ts["clean"] + ts["errors"]) / parsed, 1) if parsed else None
    t["sites_found_pct"] = round(100.0 * t["legacy_sites_found"] / t["legacy_sites"], 1) if t["legacy_sites"] else None
    return t


def table(rows, markdown=False):
    cells = []
    for r in rows:
        if r.get("status") != "done":
            cells.append([r["name"]] + ["-"] * (len(COLUMNS) - 2) + [r.get("status", "?")])
            continue
        cells.append([str(fn(r)) for _, fn, _ in COLUMNS])
    head = [c[0] for c in COLUMNS]
    widths = [max(len(head[i]), *(len(c[i]) for c in cells)) if cells else len(head[i])
              for i in range(len(head))]
    lines = []
    def fmt(vals):
        parts = []
        for i, v in enumerate(vals):
            parts.append(v.ljust(widths[i]) if COLUMNS[i][2] == "<" else v.rjust(widths[i]))
        return ("| " + " | ".join(parts) + " |") if markdown else "  ".join(parts)
    lines.append(fmt(head))
    if markdown:
        lines.append("|" + "|".join((":" if COLUMNS[i][2] == "<" else "-") + "-" * widths[i] +
                                    (":" if COLUMNS[i][2] == ">" else "-") for i in range(len(head))) + "|")
    for i, c in enumerate(cells):
        if not markdown and i == len(cells) - 1 and c[0] == "TOTAL":
            lines.append("-" * len(lines[0]))
        lines.append(fmt(c))
    return "\n".join(lines)


# --------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="folder of checkouts (prepare.py --corpus)")
    ap.add_argument("--projects", default=os.path.join(HERE, "projects.json"))
    ap.add_argument("--warpfix", default=os.path.join(REPO, "build", "bin", "warpfix"))
    ap.add_argument("-j", "--jobs", type=int, default=1, help="warpfix -j (default 1)")
    ap.add_argument("--only", default="", help="comma-separated project names")
    ap.add_argument("--skip", default="", help="comma-separated project names to leave out")
    ap.add_argument("--timeout", type=int, default=None,
                    help="seconds for one whole-project run (default: projects.json, else 3600)")
    ap.add_argument("--file-timeout", type=int, default=None,
                    help="seconds for one single-file run (default: projects.json, else 600)")
    ap.add_argument("--per-file", choices=("crash", "always", "never"), default="crash",
                    help="run each TU alone: when the whole run crashed (default), always, never")
    ap.add_argument("--no-fix", action="store_true", help="skip the --fix pass")
    ap.add_argument("--recheck", action="store_true",
                    help="after --fix, run again on the fixed copy (what remains, what is new)")
    ap.add_argument("--nvcc", default=None, help="compile the fixed .cu files with this nvcc")
    ap.add_argument("--scratch", default=None, help="folder for the --fix copies (default: a temp dir)")
    ap.add_argument("--keep-scratch", action="store_true")
    ap.add_argument("--out", default=None, help="keep every run's stdout/stderr/diff here")
    ap.add_argument("--json", default=None, help="write the results as JSON")
    ap.add_argument("--update", default=None, metavar="FILE",
                    help="start from the results in FILE (an earlier --json): the projects run "
                         "now replace theirs, the others are kept; the table and --json cover all")
    ap.add_argument("--markdown", default=None, help="write the table as Markdown")
    ap.add_argument("--warpfix-arg", action="append", default=[],
                    help="extra warpfix option for every run (repeatable), e.g. --no-prefilter")
    ap.add_argument("--cflag", action="append", default=[],
                    help="extra compiler flag for every project, after '--' (repeatable), "
                         "e.g. --cflag=-Wno-register")
    args = ap.parse_args()

    try:
        with open(args.projects) as f:
            table_in = json.load(f)
    except (OSError, ValueError) as e:
        print("sweep: cannot read %s: %s" % (args.projects, e), file=sys.stderr)
        return 2
    defaults = table_in.get("defaults", {})
    if args.timeout is None:
        args.timeout = int(defaults.get("timeout_s", 3600))
    if args.file_timeout is None:
        args.file_timeout = int(defaults.get("per_file_timeout_s", 600))
    args.warpfix = os.path.abspath(args.warpfix)
    args.corpus = os.path.abspath(args.corpus)
    if not os.access(args.warpfix, os.X_OK):
        print("sweep: no warpfix at %s (build it, or pass --warpfix)" % args.warpfix, file=sys.stderr)
        return 2
    if args.out:
        args.out = os.path.abspath(args.out)
        os.makedirs(args.out, exist_ok=True)
    version = subprocess.run([args.warpfix, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT).stdout.decode("utf-8", "replace").strip()
    def git_out(*a):
        return subprocess.run(["git", "-C", os.path.dirname(args.warpfix)] + list(a),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip()
    commit = git_out("rev-parse", "HEAD")
    # the last commit that changed anything but bench/: what the binary's sources are, if it is
    # up to date with its checkout
    top = git_out("rev-parse", "--show-toplevel")
    source_commit = git_out("-C", top, "log", "-1", "--format=%H", "--", ".", ":(exclude)bench") if top else ""
    only = set(x for x in args.only.split(",") if x)
    skip = set(x for x in args.skip.split(",") if x)
    rows = []
    kept = {}
    if args.update:
        try:
            with open(args.update) as f:
                kept = {r["name"]: r for r in json.load(f).get("projects", [])}
        except (OSError, ValueError, KeyError) as e:
            print("sweep: cannot read %s: %s" % (args.update, e), file=sys.stderr)
            return 2
        if not args.json:
            args.json = args.update
    started = time.time()
    for p in table_in["projects"]:
        if (only and p["name"] not in only) or p["name"] in skip:
            if p["name"] in kept:
                rows.append(kept[p["name"]])
            continue
        print("[%s] %s ..." % (time.strftime("%H:%M:%S"), p["name"]), file=sys.stderr, flush=True)
        try:
            r = run_project(p, args, defaults, args.out)
        except Exception as e:  # a bug here must not lose the other projects
            import traceback
            r = {"name": p["name"], "repository": p["repository"], "commit": p["commit"],
                 "status": "sweep-error", "note": "%s: %s" % (type(e).__name__, e),
                 "traceback": traceback.format_exc()}
        rows.append(r)
        if r.get("status") == "done":
            print("    %s  TUs %d, findings %d, fixed %s, %.0f s" % (
                short_run(r), r["tu_status"]["tus"], r["findings"], r.get("fixed"), r["wall_s"]),
                file=sys.stderr, flush=True)
        else:
            print("    %s: %s" % (r.get("status"), r.get("note")), file=sys.stderr, flush=True)
    tot = totals(rows)
    print(table(rows + [tot]))
    print()
    ts = tot["tu_status"]
    print("translation units: %d; analysed clean %d, with errors %d, failed %d, crashed %d, "
          "timed out %d, garbage %d, skipped by the prefilter %d (analysed: %s%% of those parsed)" % (
              ts["tus"], ts["clean"], ts["errors"], ts["failed"], ts["crashed"], ts["timeout"],
              ts["bad_output"], ts["skipped"], tot["analysed_pct"]))
    print("legacy call sites (grep): %d, with a finding %d (%s%%), in units not analysed %d; "
          "inline PTX without .sync: %d, with a finding %d" % (
              tot["legacy_sites"], tot["legacy_sites_found"], tot["sites_found_pct"],
              tot["legacy_sites_in_unanalysed_tus"], tot["ptx_sites"], tot["ptx_sites_found"]))
    print("legacy sites inside an #if on a toolkit version: %d (with a finding %d); on __CUDA_ARCH__: "
          "%d (with a finding %d)" % (
              tot["legacy_sites_under_version_if"], tot["legacy_sites_under_version_if_found"],
              tot["legacy_sites_under_arch_if"], tot["legacy_sites_under_arch_if_found"]))
    print("projects whose whole run crashed: %d of %d" % (tot["projects_crashed"], tot["projects"]))
    print("fixed automatically: %s of all findings; %s of those not refused for the unit's clang "
          "errors; %s of legacy-call and PTX findings" % (
              share(tot["fixable"], tot["findings"]),
              share(tot["fixable"], tot["findings"] - tot["refused_for_unit_errors"]),
              share(tot["legacy_fixable"], tot["legacy_findings"])))
    if tot["unfixable_by_reason"]:
        print("\nunfixable, by reason:")
        for k, v in tot["unfixable_by_reason"].items():
            print("  %5d  %s" % (v, k))
    doc = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
           "warpfix": args.warpfix, "warpfix_version": version, "warpfix_commit": commit,
           "warpfix_source_commit": source_commit,
           "jobs": args.jobs, "warpfix_args": args.warpfix_arg, "cflags": args.cflag,
           "corpus": args.corpus,
           "wall_s": round(time.time() - started, 1), "projects": rows, "totals": tot}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False, default=lambda o: sorted(o) if isinstance(o, set) else str(o))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table(rows + [tot], markdown=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
