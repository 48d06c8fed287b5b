"""The command line of sweep.py and the sweep's order of work: the options,
projects.json read and its defaults applied, the projects run one after the
other (a bug in the sweep is recorded for that project, and the others
still run), --update's earlier results merged, then the table and summary
printed and --json and --markdown written.  Exit status 0, or 2 when an
input cannot be read or there is no warpfix.
"""
import argparse
import datetime
import json
import os
import subprocess
import sys
import time

from .check import run_project
from .cmake import has_cmake
from .report import print_summary, short_run, table, totals

# bench/real-world, where sweep.py and projects.json are, and the repository
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(os.path.dirname(HERE))


def main(description=None):
    """description: the help's text, sweep.py's docstring."""
    ap = argparse.ArgumentParser(description=description,
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
    ap.add_argument("--mode", choices=("flags", "cmake"), default="flags",
                    help="flags: the source folders and flags after '--', no database (default); "
                         "cmake: each project with a CMakeLists.txt configured with CMake "
                         "(compile_commands.json exported, nothing built) and run with -p; "
                         "the others are left out")
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
        if args.mode == "cmake" and not has_cmake(p, os.path.join(args.corpus, p["name"])):
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
    # The CMake mode's build directories, in a folder of their own where no
    # --scratch named one.
    if getattr(args, "cmake_root", None) and not args.scratch and not args.keep_scratch:
        import shutil
        shutil.rmtree(args.cmake_root, ignore_errors=True)
    tot = totals(rows)
    print_summary(rows, tot)
    doc = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
           "warpfix": args.warpfix, "warpfix_version": version, "warpfix_commit": commit,
           "warpfix_source_commit": source_commit,
           "jobs": args.jobs, "mode": args.mode, "warpfix_args": args.warpfix_arg,
           "cflags": args.cflag,
           "corpus": args.corpus,
           "wall_s": round(time.time() - started, 1), "projects": rows, "totals": tot}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False, default=lambda o: sorted(o) if isinstance(o, set) else str(o))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(table(rows + [tot], markdown=True) + "\n")
    return 0
