"""Runs a command while this process holds a POSIX lock on FILE, as a
running warpfix holds the lock of its preamble folder, for
preamble-folder.test.

usage: hold-lock.py FILE COMMAND...

Exits with the command's exit code.
"""
import fcntl
import subprocess
import sys

path, *command = sys.argv[1:]
with open(path, 'r+') as lock:
    fcntl.lockf(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    sys.exit(subprocess.call(command))
