"""The runtime tests' code, which run.py (argparse and dispatch) calls, one
module per phase: cases (a case's folder and directives), then for `prepare`
analysis (warpfix's reports and --fix passes), expectations (expect.json),
emulation (the original's legacy semantics, legacy PTX), nvcc (the builds)
and prepare itself; for `run` on the GPU machine, programs (one case
program and its output), execute (checks and sanitizers), timing (the timing
phase and `timing-table`) and report (results.json, RESULTS.md, `report`);
common holds what several phases share. stdlib only: prepare copies this
package beside run.py into the folder it writes, and the GPU machine has
nothing else."""
