"""Running warpfix once: the process in a session of its own (killed as a group
at the time limit), its output captured, and the outcome classified as ok,
findings, errors, crashed (with the signal), timeout, bad-output (standard
output that is not the JSON report) or not-run; a crash or a hang is a
counted result, never a traceback.
"""
import json
import os
import signal
import subprocess
import time

from .results import parse_stats_csv


class RunResult:
    def __init__(self):
        self.cmd = []
        self.rc = None          # exit status, or -signal
        self.status = None      # ok | findings | errors | crashed | timeout | bad-output | not-run
        self.signal = None
        self.wall = 0.0
        self.stdout = ""
        self.stderr = ""
        self.report = None      # parsed JSON
        self.csv = None         # parsed --stats=csv rows


def run_warpfix(cmd, timeout, cwd=None):
    r = RunResult()
    r.cmd = cmd
    t0 = time.monotonic()
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, cwd=cwd, start_new_session=True)
    except OSError as e:
        r.status = "not-run"
        r.stderr = "cannot start %s: %s" % (cmd[0], e)
        return r
    try:
        out, err = p.communicate(timeout=timeout)
        r.rc = p.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            p.kill()
        out, err = p.communicate()
        r.rc = None
        r.status = "timeout"
    r.wall = time.monotonic() - t0
    r.stdout = out.decode("utf-8", "replace")
    r.stderr = err.decode("utf-8", "replace")
    if r.status == "timeout":
        return r
    if r.rc is not None and (r.rc < 0 or r.rc >= 128):
        r.signal = -r.rc if r.rc < 0 else r.rc - 128
        r.status = "crashed"
        return r
    try:
        r.report = json.loads(r.stdout) if r.stdout.strip() else None
    except ValueError:
        r.report = None
    if not isinstance(r.report, dict) or not isinstance(r.report.get("findings"), list):
        r.report = None
        r.status = "bad-output"
    elif r.rc == 0:
        r.status = "ok"
    elif r.rc == 1:
        r.status = "findings"
    elif r.rc == 2:
        r.status = "errors"
    else:
        r.status = "rc%d" % r.rc
    r.csv = parse_stats_csv(r.stderr)
    return r
