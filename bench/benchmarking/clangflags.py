"""The flags warpfix gives clang, so that the baseline parse is the parse
warpfix runs: the toolkit's nvcc version, the command line built from a
compilation database entry (warpfix_parse_args), and the check, on one TU,
that warpfix's -cc1 command line and the clang parse's are the same
(verify_flags).
"""
import json
import os
import re
import shlex
import subprocess

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


# tool/input/GpuArchitectures.cpp: what nvcc 13 compiles for, in warpfix's
# order (the first is the one parsed), and what clang 19 parses for in place
# of an architecture it does not know.
CUDA13_ARCHS = ("sm_75", "sm_80", "sm_86", "sm_87", "sm_88", "sm_89", "sm_90",
                "sm_100", "sm_103", "sm_110", "sm_120", "sm_121")
CLANG19_STAND_INS = ("sm_90", "sm_89", "sm_87", "sm_86", "sm_80", "sm_75")
CLANG19_KNOWN = set(CLANG19_STAND_INS) | {"sm_90a"}


def arch_value(arch):
    """nvcc's number for an architecture: sm_75 is 750."""
    m = re.match(r"(?:sm_|compute_)?(\d+)", arch)
    return int(m.group(1)) * 10 if m else 0


def arch_options(arch):
    """clangArchitectureOptions: the architecture, or the newest one clang
    knows below it with __CUDA_ARCH__ set to the real one's value."""
    if arch in CLANG19_KNOWN:
        return ["--cuda-gpu-arch=" + arch]
    base = next((k for k in CLANG19_STAND_INS
                 if arch_value(k) <= arch_value(arch)), None)
    if base is None:
        return ["--cuda-gpu-arch=" + arch]
    return ["--cuda-gpu-arch=" + base, "-U__CUDA_ARCH__",
            "-D__CUDA_ARCH__=%d" % arch_value(arch)]


def warpfix_parse_args(entry_args, cuda_path, compat, resource_dir):
    named = []
    args = []
    for a in entry_args:
        hit = next((p for p in ARCH_PREFIXES if a.startswith(p)), None)
        if hit:
            named += [x for x in a[len(hit):].split(",") if x]
            continue
        if a in OFFLOAD_MODE:
            continue
        args.append(a)
    # Those CUDA 13 retired are parsed as the oldest it keeps; none named,
    # every one it compiles for.
    archs = []
    for a in named:
        a = a if arch_value(a) >= arch_value(CUDA13_ARCHS[0]) else CUDA13_ARCHS[0]
        if a not in archs:
            archs.append(a)
    archs = archs or list(CUDA13_ARCHS)
    arch_list = ",".join(str(v) for v in sorted({arch_value(a) for a in archs}))
    front = ["-x", "cuda", "--cuda-device-only"] + arch_options(archs[0]) + [
             "--cuda-path=" + cuda_path, "-resource-dir=" + resource_dir,
             "-isystem", compat,
             "-include", os.path.join(compat, "warpfix_legacy_intrinsics.h"),
             "-include", os.path.join(compat, "warpfix_surface_functions.h"),
             "-include", os.path.join(compat, "warpfix_host_min_max.h"),
             "-include", os.path.join(compat, "warpfix_removed_apis.h"),
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
    # commandsFor puts nvcc's list of the build's architectures first.
    args = args[:1] + ["-D__CUDA_ARCH_LIST__=" + arch_list] + front + args[1:]
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
