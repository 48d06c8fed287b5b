"""Generates the benchmark's code base: a deterministic mix of CUDA
translation units that looks like a real project, with a compile_commands.json.

Kinds of translation unit (shares of the total, rounded):
  heavy   20%  modern code on CUB, Thrust or cooperative groups: no findings,
               but each costs seconds to parse
  legacy  35%  small pre-Volta kernels: legacy shuffles and votes, volatile
               warp reductions on shared memory, __activemask() masks
  host    25%  host-only C++ in .cu files, some calling the CUDA runtime
  modern  20%  plain device code with none of the tokens the checks look for

Headers in include/ are shared by many TUs: util.cuh (device helpers, clean,
included by most device TUs), legacy_warp.cuh (a legacy warp reduction,
included by some), host_util.h and config.h.

Everything depends only on the seed and the number of TUs, so two runs with the
same arguments write identical files.

The generator is the package generating/ beside this file, one module per
phase (README.md); this module re-exports what run.py and other callers use.
It has no command line.
"""

from generating.codebase import KINDS, PREFIX, SHARES, compile_commands, generate
from generating.headers import HEADERS
from generating.scaling import scaling_file, write_scaling

__all__ = ["KINDS", "PREFIX", "SHARES", "HEADERS", "generate", "compile_commands",
           "scaling_file", "write_scaling"]
