"""Checks a directory that diff-names.test patched: every .cu file equals the
fixed one, and the header's legacy call became a _sync one.

Usage: check-patched.py DIRECTORY FIXED_CU
"""
import filecmp
import os
import sys

directory, fixed = sys.argv[1:]
wrong = [name for name in sorted(os.listdir(directory))
         if name.endswith(".cu") and name != "includes.cu"
         and not filecmp.cmp(os.path.join(directory, name), fixed, shallow=False)]
with open(os.path.join(directory, "back\\slash.cuh")) as header:
    if "__shfl_down_sync(0xffffffff, v, 1)" not in header.read():
        wrong.append("back\\slash.cuh")
if wrong:
    sys.exit("not patched: " + ", ".join(wrong))
