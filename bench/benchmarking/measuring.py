"""Measuring one process: its wall time, CPU time (user + system) and peak RSS
from os.wait4 (Run, measure), the sum of many runs of one tool, one per file
(Sum), and the progress lines on standard error (log).
"""
import os
import resource  # noqa: F401  (ru_* fields of os.wait4's result)
import subprocess
import sys
import tempfile
import time


class Run:
    def __init__(self, argv, rc, wall, user, sys_, maxrss_kib, stdout, stderr):
        self.argv = argv
        self.rc = rc
        self.wall = wall
        self.cpu = user + sys_
        self.user = user
        self.sys = sys_
        self.maxrss = maxrss_kib * 1024
        self.stdout = stdout
        self.stderr = stderr
        self.load = os.getloadavg()[0]


def measure(argv, cwd, env=None):
    """Runs argv to completion; its wall time, CPU time and peak RSS."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err, env=env)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Run(argv, p.returncode, wall, ru.ru_utime, ru.ru_stime,
                   ru.ru_maxrss, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"))


class Sum:
    """Many runs of one tool, one per file."""

    def __init__(self, name):
        self.name = name
        self.runs = {}

    def add(self, path, run):
        self.runs[path] = run

    def over(self, paths):
        s = Sum(self.name)
        s.runs = {p: self.runs[p] for p in paths}
        return s

    @property
    def wall(self):
        return sum(r.wall for r in self.runs.values())

    @property
    def cpu(self):
        return sum(r.cpu for r in self.runs.values())

    @property
    def load(self):
        return sum(r.load for r in self.runs.values()) / max(len(self.runs), 1)

    @property
    def maxrss(self):
        return max((r.maxrss for r in self.runs.values()), default=0)

    def failures(self):
        return [(p, r) for p, r in self.runs.items() if r.rc != 0]


def log(msg):
    print(msg, file=sys.stderr, flush=True)
