"""warpfix's reports (prepare phase): runs warpfix on a case and reads its
findings from the text report, the --export-fixes YAML and the count line,
which must agree; then runs warpfix --fix until no finding with a fix is
left, checking each pass against the analysis before it."""

import collections
import json
import os
import re
from pathlib import Path

from .common import PrepareError, first_error, run_command, shell_line

MAX_FIX_PASSES = 4


WARNING_RE = re.compile(
    r'^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<kind>warning|note): (?P<message>.*?)'
    r'(?: \[(?P<check>[\w.-]+)\])?$')
COUNT_RE = re.compile(r'^(\d+) findings? in (\d+) files? \((\d+) fixable\)$', re.M)
FIXED_RE = re.compile(r'^fixed (\d+) findings? in (\d+) files?; (\d+) remain$', re.M)


def parse_text_report(stdout):
    """Findings printed by warpfix: warning lines, each with the notes that follow it."""
    findings = []
    for line in stdout.splitlines():
        m = WARNING_RE.match(line)
        if not m:
            continue  # the source excerpt and fix-it lines under each diagnostic
        if m['kind'] == 'warning':
            findings.append({'path': os.path.realpath(m['path']), 'line': int(m['line']),
                             'col': int(m['col']), 'check': m['check'] or '?',
                             'message': m['message'], 'notes': []})
        elif findings:
            findings[-1]['notes'].append(m['message'])
    return findings


def parse_count(stderr):
    m = COUNT_RE.search(stderr)
    if not m:
        raise PrepareError('warpfix printed no "N findings in M files (K fixable)" line:\n'
                           + stderr)
    return {'findings': int(m[1]), 'files': int(m[2]), 'fixable': int(m[3])}


def yaml_scalar(text):
    text = text.strip()
    if text.startswith("'"):
        return text[1:-1].replace("''", "'")
    if text.startswith('"'):
        return json.loads(text)
    return text


# The note of a finding whose fix shares edits with an earlier finding's: the
# YAML holds each edit once, with the first (tool/output/FixWriter.h).
SHARED_EDITS_NOTE = 'the edits this fix shares with the finding here are exported once'


def parse_export_fixes(text):
    """The diagnostics of an --export-fixes YAML file (clang-tidy's layout):
    name, file, offset, how many replacements each one's fix has, and whether
    it shares edits exported with another's."""
    diagnostics, section = [], None
    for line in text.splitlines():
        m = re.match(r'^  - DiagnosticName:\s*(.*)$', line)
        if m:
            diagnostics.append({'check': yaml_scalar(m[1]), 'path': None, 'offset': None,
                                'replacements': 0, 'shares_edits': False})
            section = None
            continue
        if not diagnostics:
            continue
        if re.match(r'^    \S', line):
            section = line.strip().rstrip(':')  # DiagnosticMessage, Notes, Level, ...
        elif section == 'DiagnosticMessage':
            m = re.match(r'^      (FilePath|FileOffset):\s*(.*)$', line)
            if m and m[1] == 'FilePath':
                diagnostics[-1]['path'] = os.path.realpath(yaml_scalar(m[2]))
            elif m:
                diagnostics[-1]['offset'] = int(m[2])
            elif re.match(r'^        - FilePath:', line):
                diagnostics[-1]['replacements'] += 1
        elif section == 'Notes':
            m = re.match(r'^      - Message:\s*(.*)$', line)
            if m and yaml_scalar(m[1]).startswith(SHARED_EDITS_NOTE):
                diagnostics[-1]['shares_edits'] = True
    return diagnostics


def line_col(data, offset):
    """clang's 1-based line and byte column of a file offset."""
    line_start = data.rfind(b'\n', 0, offset) + 1
    return data.count(b'\n', 0, offset) + 1, offset - line_start + 1


def word_at(data, offset):
    m = re.match(rb'[A-Za-z_]\w*', data[offset:offset + 64])
    return m.group().decode() if m else ''


def offset_of(data, line, col):
    """The file offset of clang's 1-based line and byte column."""
    start = 0
    for _ in range(line - 1):
        start = data.index(b'\n', start) + 1
    return start + col - 1


def after_dashes(compiler_args):
    """warpfix's arguments that pass compiler_args to every compile command."""
    return ['--', *compiler_args] if compiler_args else []


def analyse(warpfix, source, workdir, main_file=None, compiler_args=()):
    """warpfix's findings on `source` (a file, or a project's folder whose main
    unit is `main_file`), each with `fixable` and `call` (the name at its
    location), compiled with `compiler_args` as well. The text report gives the
    findings and their notes, the exported YAML which ones carry a fix; the
    two and the count line must agree."""
    yaml_path = workdir / f'{source.stem}.findings.yaml'
    report_path = workdir / f'{source.stem}.findings.txt'
    yaml_path.unlink(missing_ok=True)
    command = [warpfix, f'--export-fixes={yaml_path.name}', source.name, *after_dashes(compiler_args)]
    code, out, err = run_command(command, cwd=workdir)
    report_path.write_text(f'$ {shell_line(command)}\n{out}{err}exit {code}\n')
    if code not in (0, 1):
        raise PrepareError(f'warpfix failed on {source.name} (exit {code}): '
                           f'{first_error(out + err)} (see {report_path})')
    findings, count = parse_text_report(out), parse_count(err)
    exported = parse_export_fixes(yaml_path.read_text()) if yaml_path.exists() else []

    files = {}  # path -> bytes
    exported_at, fixable_at = collections.Counter(), collections.Counter()
    for d in exported:
        data = files.setdefault(d['path'], Path(d['path']).read_bytes())
        key = (d['path'], *line_col(data, d['offset']), d['check'])
        exported_at[key] += 1
        fixable_at[key] += d['replacements'] > 0 or d['shares_edits']
    listed_at = collections.Counter((f['path'], f['line'], f['col'], f['check']) for f in findings)
    if listed_at != exported_at:
        raise PrepareError("warpfix's text report and its --export-fixes YAML list different "
                           f'findings; see {report_path} and {yaml_path}')

    main = os.path.realpath(main_file or source)
    for f in findings:
        key = (f['path'], f['line'], f['col'], f['check'])
        f['fixable'] = fixable_at[key] > 0
        fixable_at[key] -= f['fixable']
        data = files[f['path']]
        f['call'] = word_at(data, offset_of(data, f['line'], f['col']))
        f['file'] = None if f['path'] == main else os.path.basename(f['path'])
    with_fix = sum(f['fixable'] for f in findings)
    if (count['findings'], count['fixable']) != (len(findings), with_fix):
        raise PrepareError(f'warpfix counted {count["findings"]} findings ({count["fixable"]} '
                           f'fixable) but listed {len(findings)} ({with_fix} with a fix)')
    return findings


def fix_in_place(warpfix, path, findings, main_file=None, compiler_args=()):
    """Runs warpfix --fix on `path`, whose findings are `findings`, until no
    finding left has a fix: one whose edit overlaps another's is fixed by the
    next pass, as warpfix's note says. Each pass is checked against the
    analysis before it, and the rewritten file is analysed again after it, so
    that what remains comes with warpfix's notes. Returns (passes, fixed,
    remaining findings); raises PrepareError if warpfix fails."""
    passes = fixed = 0
    logs = []
    try:
        while any(f['fixable'] for f in findings):
            if passes == MAX_FIX_PASSES:
                raise PrepareError(f'findings with a fix remain after {passes} warpfix --fix passes')
            command = [warpfix, '--fix', path.name, *after_dashes(compiler_args)]
            code, out, err = run_command(command, cwd=path.parent)
            logs.append(f'$ {shell_line(command)}\n{out}{err}exit {code}\n')
            passes += 1
            m = FIXED_RE.search(err)
            if code not in (0, 1) or not m:
                raise PrepareError(f'warpfix --fix failed (exit {code}): {first_error(out + err)}')
            expected = sum(f['fixable'] for f in findings)
            if (int(m.group(1)), int(m.group(3))) != (expected, len(findings) - expected):
                raise PrepareError(f'warpfix --fix pass {passes}: "{m.group(0)}", but the analysis '
                                   f'before it found {len(findings)} findings, {expected} fixable')
            fixed += expected
            try:
                after = analyse(warpfix, path, path.parent, main_file, compiler_args)
            except PrepareError as e:
                raise PrepareError(f'after warpfix --fix pass {passes}: {e}')
            if len(after) != len(findings) - expected:
                raise PrepareError(f'warpfix --fix pass {passes} fixed {expected} of '
                                   f'{len(findings)} findings, but the fixed file has '
                                   f'{len(after)}: a fix introduced findings')
            findings = after
    finally:
        (path.parent / 'fix.txt').write_text('\n'.join(logs) or 'nothing to fix\n')
    return passes, fixed, findings
