"""Reading what warpfix printed: the --stats=csv table on standard error, the
JSON report (findings, per-unit statuses, summary counts under any of the
spellings issue 14 may give them, unfixable reasons), clang's errors
attributed to their translation unit and grouped by class, and where a crash
happened from LLVM's stack dump.
"""
import collections
import csv
import io
import re

from .util import as_int, norm_key, pick, real

DIAG_RE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<kind>fatal error|error): (?P<msg>.*)$")
INCLUDED_RE = re.compile(r"^(?:In file included from|\s+from) (?P<file>.+?):(?P<line>\d+)[:,]")


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
