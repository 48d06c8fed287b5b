"""Checks that the benchmark's clang parse runs the -cc1 command line that
warpfix runs (bench/benchmarking/clangflags.py against
tool/input/CompileCommands.cpp), for a file of a compilation database that
names no architecture, a retired one, and one that clang 19 does not know.

  bench-clang-flags.py SRCROOT WARPFIX CLANG CUDA WORKDIR
"""
import json
import os
import subprocess
import sys

srcroot, warpfix, clang, cuda, work = sys.argv[1:6]
warpfix = os.path.abspath(warpfix)
sys.path.insert(0, os.path.join(srcroot, "bench"))
from benchmarking.clangflags import verify_flags, warpfix_parse_args  # noqa: E402

compat = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(warpfix))),
                      "share", "warpfix", "compat")
resource = subprocess.run([clang, "-print-resource-dir"], capture_output=True,
                          text=True, check=True).stdout.strip()
source = os.path.join(work, "k.cu")
with open(source, "w") as f:
    f.write("__global__ void k(int *p) { p[threadIdx.x] = __shfl(p[0], 1); }\n")
for archs in ([], ["--cuda-gpu-arch=sm_70"], ["--cuda-gpu-arch=sm_100,sm_80"]):
    entry = ["clang++", "-c", source, "-o", source + ".o"] + archs
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump([{"directory": work, "file": source, "arguments": entry}], f)
    parse = warpfix_parse_args(entry, cuda, compat, resource)
    diff = verify_flags(warpfix, work, [clang] + parse[1:], source, work,
                        ["--no-cache", "--cuda-path=" + cuda])
    print(" ".join(archs) or "(no architecture)", "->", diff or "same")
