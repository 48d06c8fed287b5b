"""One project's check pass: warpfix over its source folders with its flags
(no compilation database, as a new user runs it), every translation unit run
alone when that run crashed, timed out or printed garbage (run_per_file),
then the findings, unfixable reasons, clang's error classes and the grep's
sites matched against the findings, and last the fix pass (fix.fix_pass).
run_project returns the project's row, which the report and --json use.
"""
import collections
import json
import os
import time

from .fix import fix_pass
from .grep import SOURCE_EXTS, grep_sites
from .cmake import configure
from .inputs import command_tail, project_args, source_paths, tus_of, walk
from .results import (clang_errors, crash_info, error_class, findings_of, reason_group,
                      refused_for_unit_errors, stats_from_csv, summarise_tus,
                      tu_statuses_from_report)
from .running import run_warpfix
from .util import as_int, ere_escape, pick, real, rel, shlex_quote


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
    res["mode"] = args.mode
    database = None
    if args.mode == "cmake":
        res["cmake"] = configure(p, root, cmake_build_dir(args, p["name"], "check"),
                                 args.file_timeout, args.nvcc)
        if res["cmake"]["status"] != "configured":
            res["status"] = res["cmake"]["status"]
            res["note"] = res["cmake"].get("first_error") or ""
            return res
        database = res["cmake"]["build_dir"]
        del res["flags"]
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
    whole = run_warpfix(base + command_tail(srcs, flags, database), args.timeout)
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
    elif not per_file and not statuses:
        # The whole run failed and no unit runs alone: every unit shares its
        # outcome, rather than vanishing from the count.
        statuses = {t: whole.status if whole.status in ("crashed", "timeout", "bad-output")
                    else "failed" for t in tus}
    if per_file:
        findings, statuses, errors, skipped, csv_rows, file_crashes = run_per_file(
            base, flags, database, tus, args, pdir, root)
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


def cmake_build_dir(args, name, tag):
    """Where the CMake mode configures a project: beside the fix pass's copies."""
    import tempfile
    if not getattr(args, "cmake_root", None):
        args.cmake_root = args.scratch or tempfile.mkdtemp(prefix="warpfix-sweep-cmake-")
    return os.path.join(args.cmake_root, "%s.%s-build" % (name, tag))


def run_per_file(base, flags, database, tus, args, pdir, root):
    """Every TU alone: for a whole run that crashed, timed out or printed garbage."""
    findings = {}
    statuses = {}
    errors = []
    crashes = []
    csv_rows = []
    skipped = 0
    for i, t in enumerate(tus):
        # headers under the project's sources stay visible as in the whole run
        r = run_warpfix(base + ["--header-filter=^" + ere_escape(real(root)) + "/"] +
                        command_tail([t], flags, database), args.file_timeout)
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
