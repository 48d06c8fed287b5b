"""Shared by every phase: where the runtime tests live (or the folder prepare
wrote, on the GPU machine), the manifest's name, the error of the prepare
phase, running a command, and the small text helpers that the log lines and
tables of all phases use."""

import re
import subprocess
from pathlib import Path

# The folder that holds run.py and this package: runtime-tests/, or, on the
# GPU machine, the folder prepare wrote (it copies both there).
HERE = Path(__file__).resolve().parent.parent
MANIFEST = 'manifest.json'
# The checks that report shared-memory races and fix them with a barrier.
RACE_CHECKS = ('warp-missing-syncwarp', 'block-missing-syncthreads')
TIMING_NOTES = 'timing-notes.md'  # explanations of slowdowns, appended to RESULTS.md


class PrepareError(Exception):
    """Something the prepare phase cannot go on from for one case."""


def log(message=''):
    print(message, flush=True)


def run_command(command, cwd, timeout=None):
    """Runs command (a list) and returns (returncode, stdout, stderr); 124 on timeout."""
    try:
        proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True,
                              errors='replace', timeout=timeout)
        return proc.returncode, proc.stdout, proc.stderr
    except OSError as e:  # not executable, or being replaced by a build right now
        return 126, '', f'cannot run {command[0]}: {e}\n'
    except subprocess.TimeoutExpired as e:
        def text(data):
            return data.decode(errors='replace') if isinstance(data, bytes) else (data or '')
        return 124, text(e.stdout), text(e.stderr) + f'\n[killed after {timeout} s]\n'


def indent(text, prefix, max_lines=None):
    lines = text.splitlines()
    if max_lines and len(lines) > max_lines:
        lines = lines[:max_lines] + [f'... ({len(lines) - max_lines} more lines)']
    return '\n'.join(prefix + line for line in lines)


def plural(count, noun):
    return f'{count} {noun}' + ('' if count == 1 else 's')


def shell_line(command):
    return ' '.join(arg if re.fullmatch(r'[\w@%+=:,./-]+', arg) else repr(arg) for arg in command)


def first_error(output):
    for line in output.splitlines():
        if re.search(r'\berror\b', line):
            return line.strip()
    return output.strip().splitlines()[-1] if output.strip() else ''


def format_shape(shape):
    return f'{shape[0]}x{shape[1]}:{shape[2]}'


def cell(value):
    return '?' if value is None else str(value)


def reported_races(record):
    """Races warpfix found and left in the rewritten program, saying so."""
    remaining = (record.get('fix') or {}).get('remaining', [])
    return sum(f['check'] in RACE_CHECKS for f in remaining)
