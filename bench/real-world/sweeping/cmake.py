"""The sweep's CMake mode (--mode=cmake): a project is configured the way its
users build it, with CMake writing compile_commands.json, and warpfix runs
with -p on that build directory instead of flags after '--'.  Issue 42,
item 7.

Nothing is built: configuring is enough for the database.  Generated headers
that only the build writes are therefore still missing, and so are the
compiles of CMake's FindCUDA (cuda_add_library), which runs nvcc through
custom commands that compile_commands.json does not list: warpfix lends such
a .cu file the command of a neighbouring source, as clang's tools do.  The
row says how many entries, and how many CUDA ones, the database had.
"""
import json
import os
import re
import subprocess
import time


def cmake_source(p, root):
    return os.path.normpath(os.path.join(root, p.get("cmake_source", ".")))


def has_cmake(p, root):
    return os.path.isfile(os.path.join(cmake_source(p, root), "CMakeLists.txt"))


def first_cmake_error(log):
    """The first 'CMake Error' of a configure log, its message on one line."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("CMake Error"):
            body = [line]
            for more in lines[i + 1:i + 12]:
                if not more.strip() and len(body) > 2:
                    break
                if more.startswith(("Call Stack", "-- ")):
                    break
                body.append(more.strip())
            return re.sub(r"\s+", " ", " ".join(body)).strip()[:400]
    return None


def configure(p, root, build_dir, timeout, nvcc=None):
    """cmake -S <source> -B build_dir with the compile database exported.
    Returns the outcome: status configured | configure-failed | no-database
    | timeout | no-cmake, the first CMake error, and the database's
    entries."""
    out = {"build_dir": build_dir}
    if not has_cmake(p, root):
        out["status"] = "no-cmake"
        return out
    cmd = ["cmake", "-S", cmake_source(p, root), "-B", build_dir,
           "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"]
    if nvcc:
        # Both CMake's CUDA language and FindCUDA look for nvcc here.
        cmd += ["-DCMAKE_CUDA_COMPILER=" + nvcc,
                "-DCUDA_TOOLKIT_ROOT_DIR=" + os.path.dirname(os.path.dirname(nvcc))]
    cmd += [a.replace("{root}", root) for a in p.get("cmake_args", [])]
    out["command"] = cmd
    os.makedirs(build_dir, exist_ok=True)
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout, cwd=build_dir)
        log = r.stdout.decode("utf-8", "replace")
        out["rc"] = r.returncode
    except subprocess.TimeoutExpired:
        out["status"] = "timeout"
        out["wall_s"] = round(time.monotonic() - t0, 1)
        return out
    out["wall_s"] = round(time.monotonic() - t0, 1)
    with open(os.path.join(build_dir, "warpfix-sweep-configure.log"), "w") as f:
        f.write(log)
    database = os.path.join(build_dir, "compile_commands.json")
    if out["rc"] != 0:
        out["status"] = "configure-failed"
        out["first_error"] = first_cmake_error(log) or "cmake exited with %d" % out["rc"]
        return out
    if not os.path.isfile(database):
        # A project whose CMakeLists.txt defines no target that compiles
        # (a header-only library, or one whose targets are all optional).
        out["status"] = "no-database"
        out["first_error"] = "CMake configured, but wrote no compile_commands.json"
        return out
    try:
        with open(database) as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        out["status"] = "configure-failed"
        out["first_error"] = "compile_commands.json unreadable: %s" % e
        return out
    def is_cuda(e):
        command = e.get("command") or " ".join(e.get("arguments", []))
        return e.get("file", "").endswith(".cu") or " -x cu" in command
    out["status"] = "configured"
    out["entries"] = len(entries)
    out["cuda_entries"] = sum(1 for e in entries if is_cuda(e))
    return out
