"""Running one case program (run phase, GPU machine; the timing phase too):
its command line, under a sanitizer or not, and what its output says: the
RESULT and TIME_MS lines, and the sanitizers' summary lines."""

import re
import time

from .common import run_command

RUN_TIMEOUT_S = 120
SANITIZER_TIMEOUT_S = 300


RESULT_RE = re.compile(r'^RESULT (ok|mismatch|error)\b(.*)$', re.M)
TIME_RE = re.compile(r'^TIME_MS ([\d.]+)$', re.M)
RACECHECK_RE = re.compile(
    r'RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)')
ERROR_SUMMARY_RE = re.compile(r'ERROR SUMMARY: (\d+) errors?')

SANITIZER_ARGS = {
    'racecheck': ['--tool', 'racecheck', '--racecheck-report', 'all'],
    'synccheck': ['--tool', 'synccheck'],
    'memcheck': ['--tool', 'memcheck', '--leak-check', 'full'],
}


def program_result(code, stdout):
    """(status, detail, time_ms) from a case program's output: status is ok,
    mismatch or error (its RESULT line), or timeout or crash (no RESULT line, or
    RESULT ok with a failing exit status)."""
    result, timing = RESULT_RE.search(stdout), TIME_RE.search(stdout)
    if result and (result.group(1) != 'ok' or code == 0):
        status, detail = result.group(1), result.group(2).strip()
    else:
        status = 'timeout' if code == 124 else 'crash'
        last_lines = stdout.strip().splitlines()[-1:]
        detail = f'exit {code}' + (f': {last_lines[0]}' if last_lines else '')
    return status, detail, float(timing.group(1)) if timing else None


def run_program(out_dir, binary, shape, seed, launches, sanitizer=None, tool=None):
    command = [str(out_dir / binary), *map(str, shape), str(seed), str(launches)]
    if tool:
        command = [sanitizer, *SANITIZER_ARGS[tool], '--print-limit', '20'] + command
    timeout = SANITIZER_TIMEOUT_S if tool else RUN_TIMEOUT_S
    started = time.time()
    code, stdout, stderr = run_command(command, cwd=out_dir, timeout=timeout)
    status, detail, time_ms = program_result(code, stdout)
    result = {'binary': binary, 'shape': list(shape), 'seed': seed, 'launches': launches,
              'status': status, 'detail': detail, 'time_ms': time_ms,
              'seconds': round(time.time() - started, 2)}
    if tool:
        result.update(sanitizer_findings(tool, stdout + stderr))
        result['tool'] = tool
        result['output'] = (stdout + stderr)[-4000:]
    elif status != 'ok':
        result['output'] = (stdout + stderr)[-2000:]
    return result


def sanitizer_findings(tool, output):
    """{'findings': count or None when the summary is missing, ...} for one tool."""
    if tool == 'racecheck':
        m = RACECHECK_RE.search(output)
        if not m:
            return {'findings': None}
        hazards, errors, warnings = (int(g) for g in m.groups())
        return {'findings': max(hazards, errors + warnings), 'hazards': hazards,
                'errors': errors, 'warnings': warnings}
    m = ERROR_SUMMARY_RE.search(output)
    return {'findings': int(m.group(1)) if m else None}
