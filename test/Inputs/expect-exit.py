"""Runs a command and succeeds only if it exits with the expected code.

lit's `not` only tells zero from non-zero; warpfix's exit codes (0 clean,
1 findings, 2 error) need the exact value. Output passes through unchanged.
Usage: expect-exit.py CODE command [args...]
"""
import subprocess
import sys

expected = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != expected:
    sys.stderr.write("expect-exit: exit code %d, expected %d\n"
                     % (result.returncode, expected))
    sys.exit(1)
