"""The real-world sweep, one module per phase, with sweep.py as its entry
point: the command line and the order of work (cli), a project's inputs
(inputs), running warpfix once (running), reading what it printed
(results), the grep of the sources for legacy call sites (grep), one
project's check and per-file passes (check) and its fix pass (fix), and the
table and totals (report), with small helpers (util).  Standard library
only; see ../README.md.
"""
