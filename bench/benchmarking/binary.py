"""The warpfix binary under test: copied with what it finds beside it, so that
a rebuild during the run cannot mix two binaries' figures (snapshot), and
the flags it has, read from --help-hidden (warpfix_flags); the runs leave
out those it lacks.
"""
import os
import re
import shutil
import subprocess
import sys


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
