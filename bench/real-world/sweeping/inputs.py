"""Discovery of a project's inputs from its projects.json entry and its
checkout: the flags after '--' and the warpfix options (project_args), the
source folders (source_paths), and the files under them, the .cu translation
units among them (walk, tus_of).
"""
import os


def walk(root, exts):
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(exts):
                yield os.path.join(d, name)


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


def command_tail(paths, flags, database=None):
    """What follows warpfix's options: the paths, then the flags after '--',
    or, in the CMake mode, -p and the build directory (an empty '--' would
    stand in for the database)."""
    if database:
        return ["-p", database] + list(paths)
    return list(paths) + ["--"] + list(flags)


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
