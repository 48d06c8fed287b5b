#!/usr/bin/env python3
"""Fetch the real-world corpus: one work tree per project of projects.json.

Each project (and each of its dependencies, such as a git submodule) is
pinned to a commit.  The work tree is written from the commit's tree, blob by
blob, so that a repository whose largest files are missing from a partial
mirror still extracts (those files are listed in the stamp file and skipped).

Sources of the git objects, in order:
  --mirrors DIR   a folder of existing clones, one per repository, named
                  <owner>+<name>/repo (bare) or <owner>+<name>/repo/.git, or
                  <owner>/<name>(.git)
  --clone-dir DIR otherwise the repository is cloned (bare, all branches and
                  tags) from https://github.com/<owner>/<name>.git into DIR
                  and reused on the next run.

    python3 bench/real-world/prepare.py --corpus /work/corpus
    python3 bench/real-world/prepare.py --corpus /work/corpus --mirrors /work/.mirror
    python3 bench/real-world/prepare.py --corpus C --only cub-1.7.0,faiss-2017

A project already extracted at the pinned commit (its stamp file says so) is
left alone; --force extracts it again.  Standard library only.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

STAMP = ".warpfix-corpus.json"


def git(gitdir, *args, **kw):
    return subprocess.run(["git", "--git-dir", gitdir] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def find_gitdir(repo, mirrors, clone_dir):
    owner, name = repo.split("/", 1)
    candidates = []
    for root in mirrors:
        candidates += [
            os.path.join(root, owner + "+" + name, "repo", ".git"),
            os.path.join(root, owner + "+" + name, "repo"),
            os.path.join(root, owner, name + ".git"),
            os.path.join(root, owner, name, ".git"),
            os.path.join(root, owner, name),
        ]
    for c in candidates:
        if os.path.isdir(c) and git(c, "rev-parse", "--git-dir").returncode == 0:
            return c
    if not clone_dir:
        return None
    dest = os.path.join(clone_dir, owner + "+" + name + ".git")
    if not os.path.isdir(dest):
        os.makedirs(clone_dir, exist_ok=True)
        url = "https://github.com/%s.git" % repo
        print("  cloning %s" % url, flush=True)
        r = subprocess.run(["git", "clone", "--bare", "--quiet", url, dest])
        if r.returncode != 0:
            return None
    return dest


def extract(gitdir, commit, dest, subtree=""):
    """Write the tree of commit (or its folder subtree) under dest.

    Returns (files written, paths missing from the clone, submodule paths)."""
    ls = git(gitdir, "ls-tree", "-r", "-z", "--full-tree", commit)
    if ls.returncode != 0:
        raise RuntimeError(ls.stderr.decode(errors="replace").strip())
    entries = []
    submodules = []
    for rec in ls.stdout.split(b"\0"):
        if not rec:
            continue
        meta, path = rec.split(b"\t", 1)
        mode, kind, sha = meta.split()
        path = path.decode("utf-8", "surrogateescape")
        if subtree:
            if not path.startswith(subtree.rstrip("/") + "/"):
                continue
            path = path[len(subtree.rstrip("/")) + 1:]
        if kind == b"commit":
            submodules.append(path)
            continue
        entries.append((mode.decode(), sha.decode(), path))
    proc = subprocess.Popen(["git", "--git-dir", gitdir, "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    written = 0
    for mode, sha, path in entries:
        proc.stdin.write((sha + "\n").encode())
        proc.stdin.flush()
        header = proc.stdout.readline().decode().split()
        if len(header) < 3 or header[1] == "missing":
            missing.append(path)
            continue
        size = int(header[2])
        data = proc.stdout.read(size)
        proc.stdout.read(1)  # the newline after the object
        target = os.path.join(dest, path)
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        if os.path.lexists(target):
            os.remove(target)
        if mode == "120000":
            os.symlink(data.decode("utf-8", "surrogateescape"), target)
        else:
            with open(target, "wb") as f:
                f.write(data)
            if mode == "100755":
                os.chmod(target, 0o755)
        written += 1
    proc.stdin.close()
    proc.wait()
    return written, missing, submodules


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="folder to write the work trees into")
    ap.add_argument("--projects", default=os.path.join(here, "projects.json"))
    ap.add_argument("--mirrors", action="append", default=[],
                    help="folder of existing clones (repeatable)")
    ap.add_argument("--clone-dir", default=None,
                    help="clone missing repositories from GitHub into this folder")
    ap.add_argument("--only", default="", help="comma-separated project names")
    ap.add_argument("--force", action="store_true", help="extract again even if stamped")
    args = ap.parse_args()

    with open(args.projects) as f:
        table = json.load(f)
    only = set(x for x in args.only.split(",") if x)
    status = 0
    for p in table["projects"]:
        if only and p["name"] not in only:
            continue
        dest = os.path.join(args.corpus, p["name"])
        stamp_path = os.path.join(dest, STAMP)
        # A project whose files include each other as "<dir>/..." is
        # extracted under that folder ("path").
        pins = [{"repository": p["repository"], "commit": p["commit"],
                 "path": p.get("path", "")}]
        pins += p.get("dependencies", [])
        want = [(d["repository"], d["commit"], d.get("path", ""), d.get("subtree", ""))
                for d in pins]
        if not args.force and os.path.exists(stamp_path):
            try:
                with open(stamp_path) as f:
                    old = json.load(f)
                if [(d["repository"], d["commit"], d["path"], d.get("subtree", ""))
                        for d in old["pins"]] == want:
                    print("%-28s up to date" % p["name"])
                    continue
            except (OSError, ValueError, KeyError):
                pass
        if os.path.isdir(dest):
            shutil.rmtree(dest)
        os.makedirs(dest)
        record = {"name": p["name"], "pins": []}
        ok = True
        for repo, commit, sub, subtree in want:
            gitdir = find_gitdir(repo, args.mirrors, args.clone_dir)
            if gitdir is None:
                print("%-28s %s: no clone (pass --mirrors or --clone-dir)" % (p["name"], repo))
                ok = False
                break
            try:
                n, missing, subs = extract(gitdir, commit, os.path.join(dest, sub), subtree)
            except RuntimeError as e:
                print("%-28s %s@%s: %s" % (p["name"], repo, commit[:10], e))
                ok = False
                break
            record["pins"].append({"repository": repo, "commit": commit, "path": sub,
                                   "subtree": subtree, "files": n, "missing": missing, "submodules": subs})
            print("%-28s %s@%s%s -> %s: %d files%s" % (
                p["name"], repo, commit[:10], ":" + subtree if subtree else "", sub or ".", n,
                ", %d missing from the clone" % len(missing) if missing else ""))
        if ok:
            with open(stamp_path, "w") as f:
                json.dump(record, f, indent=1, sort_keys=True)
        else:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
