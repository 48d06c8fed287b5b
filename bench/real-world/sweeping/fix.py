"""One project's fix pass: warpfix --fix on a scratch copy of the project (the
units that crashed, timed out or printed garbage alone are left out), the
files it changed and their diff, with --recheck a second check of the fixed
copy, and with --nvcc each changed .cu compiled before and after the fix.
"""
import collections
import filecmp
import os
import re
import shutil
import subprocess
import tempfile
import time

from .cmake import configure
from .inputs import command_tail, project_args, source_paths
from .results import crash_info, findings_of
from .running import run_warpfix
from .util import as_int, ere_escape, pick, real, shlex_quote


def fix_pass(p, args, defaults, base, tus, statuses, root, pdir):
    """--fix on a scratch copy; the units that crashed alone are left out.
    The copy goes afterwards, however the pass ends, unless --keep-scratch."""
    scratch_root = args.scratch or tempfile.mkdtemp(prefix="warpfix-sweep-")
    copy = os.path.join(scratch_root, p["name"])
    try:
        return fix_in_copy(p, args, defaults, base, tus, statuses, root, pdir, copy)
    finally:
        if not args.keep_scratch:
            shutil.rmtree(copy, ignore_errors=True)
            if not args.scratch:
                shutil.rmtree(scratch_root, ignore_errors=True)


def fix_in_copy(p, args, defaults, base, tus, statuses, root, pdir, copy):
    out = {}
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
    database = None
    # What configuring the copy wrote into its sources (configure_file): not
    # the fix's.
    written_by_cmake = {}
    if args.mode == "cmake":
        # The check pass's database names the original tree: the copy is
        # configured again, so that its compiles name the copy.
        from .check import cmake_build_dir
        configured = configure(p, copy, cmake_build_dir(args, p["name"], "fix"),
                               args.file_timeout, args.nvcc)
        if configured["status"] != "configured":
            out["fix_run"] = {"status": "not-run",
                              "note": "the copy did not configure: %s" % configured.get("first_error")}
            return out
        database = configured["build_dir"]
        written_by_cmake = {c: open(os.path.join(copy, c), "rb").read()
                            for c in files_changed(copy, root)}
    bad = {os.path.relpath(t, root) for t, s in statuses.items() if s in ("crashed", "timeout", "bad-output")}
    fix_base = [a for a in base if a != "--format=json"] + ["--format=json", "--fix"]
    if bad:
        files = [os.path.join(copy, os.path.relpath(t, root)) for t in tus
                 if os.path.relpath(t, root) not in bad]
        if not files:
            out["fix_run"] = {"status": "nothing-to-run", "left_out": sorted(bad)}
            out["fixed"] = 0
            return out
        cmd = fix_base + ["--header-filter=^" + ere_escape(real(copy)) + "/"] + \
            command_tail(files, flags, database)
    else:
        cmd = fix_base + command_tail(srcs, flags, database)
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
    changed = [c for c in files_changed(copy, root)
               if c not in written_by_cmake or
               open(os.path.join(copy, c), "rb").read() != written_by_cmake[c]]
    out["files_changed"] = changed
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
    return out


def files_changed(copy, root):
    """The files of copy that differ from root's, or that root lacks, sorted."""
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
    return sorted(changed)


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
