"""The warpfix benchmark, one module per phase, with bench/run.py as its
entry point: the command line and the order of work (cli), the binary
copied and its flags read (binary), the flags warpfix gives clang and the
check that the clang parse runs the same -cc1 line (clangflags), the code
base generated and its databases written (codebase), which files need a
full parse (triggers), measuring one process (measuring), the scaling runs
(scaling), the timed runs of clang, clang-tidy and warpfix (timing), their
findings compared (findings), the ratios against their targets (ratios),
and the printed report and --json (report).  Standard library only; see
../README.md.
"""
