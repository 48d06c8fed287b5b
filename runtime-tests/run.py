#!/usr/bin/env python3
"""warpfix runtime tests: show on a GPU that every rewrite keeps behaviour and removes races.

Two phases, so that the GPU machine needs nothing but python3, compute-sanitizer
and the folder the first phase writes:

  prepare   (nvcc and warpfix, no GPU; runs in CI)
            For each case: run warpfix on the original and compare its findings
            with the case's expect.json; rewrite a copy with warpfix --fix; build
            the rewritten program (sm_75 check, sm_90 binary), the original under
            legacy_emulation.cuh (sm_90 binary), and check that the original
            does not build without that header. Writes the output folder:
            binaries, sources, manifest.json and a copy of this script.

  run       (GPU machine, given that folder)
            Runs both programs over the case's launch shapes and seeds against
            the CPU reference; runs racecheck, synccheck and memcheck on the
            rewritten program and racecheck on the original; then times the
            original against the rewritten program and against itself at a
            size where a launch takes at least 1 ms (--timing-only and
            --no-timing pick one phase). Writes results.json and RESULTS.md
            into the folder.

  report    merges the results.json of a --no-timing run and of a
            --timing-only run into RESULTS.md; timing-table prints the timing
            of a results.json (what scripts/bench.sh shows).

  python3 runtime-tests/run.py prepare            # here or in CI
  python3 out/run.py run out                       # on the GPU machine
"""

import argparse
import collections
import concurrent.futures
import datetime
import difflib
import fnmatch
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MANIFEST = 'manifest.json'
OUT_MARKER = '.runtime-tests-out'  # marks a folder that prepare may empty
SUPPORT_FILES = ('harness.h', 'legacy_emulation.cuh')
LEGACY_CHECK = 'warp-legacy-intrinsic'
LEGACY_PTX_CHECK = 'warp-legacy-ptx'
# Findings that nvcc 13 cannot build without the legacy semantics emulated.
LEGACY_CHECKS = (LEGACY_CHECK, LEGACY_PTX_CHECK)
REMOVED_API_CHECK = 'cuda-removed-api'
# The removed runtime calls that legacy_emulation.cuh defines again.
EMULATED_REMOVED_CALLS = ('cudaThreadExit', 'cudaThreadSynchronize', 'cudaThreadSetLimit',
                          'cudaThreadGetLimit', 'cudaThreadGetCacheConfig',
                          'cudaThreadSetCacheConfig')


def needs_emulation(finding):
    """Whether nvcc 13 builds the code of this finding only with
    legacy_emulation.cuh: a legacy intrinsic or PTX, or a removed runtime
    call that the header defines again."""
    return finding['check'] in LEGACY_CHECKS or (
        finding['check'] == REMOVED_API_CHECK and finding.get('call') in EMULATED_REMOVED_CALLS)
RACE_CHECK = 'warp-missing-syncwarp'
MAX_FIX_PASSES = 4

# The GPU binary is built for sm_90 (H100, H200); sm_75 is the oldest
# architecture CUDA 13 supports, where only compiling is checked.
RUN_ARCH = 'sm_90'
CHECK_ARCH = 'sm_75'
WERROR = ['-Werror', 'all-warnings']
# nvcc's -O is the host compiler's alone (device code is optimised either way):
# the timing phase grows inputs to ~10^9 elements, which the unoptimised host
# code of a case takes tens of seconds to generate and check. -s drops the host
# symbol table, a quarter of each binary with -O2, so that the prepared folder
# stays under the 64 MiB a GPU machine is sent (device line info is kept).
HOST_OPTIMIZATION = ['-O2', '-Xlinker', '-s']

# What `run` does, and in --quick mode. Each program run checks every launch.
# time_rounds: timed launches of each of the three timed programs (see run_timing).
FULL = dict(shapes=None, seeds=(1, 2, 3), launches=5, time_rounds=100)
QUICK = dict(shapes=2, seeds=(1,), launches=2, time_rounds=50)
RUN_TIMEOUT_S = 120
SANITIZER_TIMEOUT_S = 300


# The files of a case folder that are not part of its program.
CASE_METADATA = ('expect.json', '.warpfix.yaml')


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


# ---------------------------------------------------------------------------
# Cases

Shape = collections.namedtuple('Shape', 'block_size num_blocks n')
SHAPE_RE = re.compile(r'^(\d+)x(\d+):(\d+)$')
DIRECTIVE_RE = re.compile(r'^//\s*@(shapes|sanitize|time|original)\s+(.+?)\s*$', re.M)
# The timing phase grows a case's @time shape until one launch runs for at
# least TIME_TARGET_MS: by default both numBlocks and n by the same factor.
# After the shape, `grow=blocks` grows numBlocks alone (n is a per-block size
# there), `grow=none` nothing (the kernel fixes the size); `max-n=N` keeps n at
# most N where the case allocates a multiple of n elements of int.
TIME_GROW_DIMS = {'blocks,n': ('blocks', 'n'), 'blocks': ('blocks',), 'none': ()}
# Threads and n of a grown shape stay at or below this, so that a kernel's int
# index (blockIdx.x * blockDim.x + threadIdx.x) and the inputs stay in range.
TIME_MAX_ELEMENTS = 1 << 30


def parse_shape(text):
    m = SHAPE_RE.match(text)
    if not m:
        raise PrepareError(f'bad shape {text!r}: expected <blockSize>x<numBlocks>:<n>')
    return Shape(*map(int, m.groups()))


def parse_time_grow(options):
    """{'dims', 'max_n'} from the `grow=...` and `max-n=N` words of @time."""
    grow = {'dims': list(TIME_GROW_DIMS['blocks,n']), 'max_n': TIME_MAX_ELEMENTS}
    for word in options:
        key, _, value = word.partition('=')
        if key == 'grow' and value in TIME_GROW_DIMS:
            grow['dims'] = list(TIME_GROW_DIMS[value])
        elif key == 'max-n' and value.isdigit():
            grow['max_n'] = min(int(value), TIME_MAX_ELEMENTS)
        else:
            raise PrepareError(f'bad @time option {word!r}: expected grow=' + '|'.join(
                TIME_GROW_DIMS) + ' or max-n=N')
    if grow['max_n'] != TIME_MAX_ELEMENTS and 'n' not in grow['dims']:
        raise PrepareError('@time: max-n=N, but n does not grow')
    return grow


def read_case(directory):
    """The case in `directory`: its source, launch shapes and description."""
    name = directory.name
    source = directory / f'{name}.cu'
    if not source.is_file():
        raise PrepareError(f'{directory} has no {name}.cu')
    text = source.read_text()
    directives = {}
    for key, value in DIRECTIVE_RE.findall(text):
        if key in directives:
            raise PrepareError(f'{source}: @{key} given twice')
        words = value.split()
        if key == 'original':
            # `@original not-lockstep`: the case's legacy kernels diverge
            # inside loops, where the emulation's __activemask() need not
            # see every lane of a source iteration, so the emulated original
            # need not compute the lockstep reference; its runs are recorded
            # and do not decide the case.
            if words != ['not-lockstep']:
                raise PrepareError(f'{source}: @original takes not-lockstep')
            directives[key] = words
            continue
        try:
            if key == 'time':
                directives['time-grow'] = parse_time_grow(w for w in words if '=' in w)
                words = [w for w in words if '=' not in w]
            directives[key] = [parse_shape(w) for w in words]
        except PrepareError as e:
            raise PrepareError(f'{source}: {e}')
    # Any other file makes the case a project (units that share a header):
    # warpfix then analyses and fixes the case's folder as a whole.
    project_files = sorted(str(p.relative_to(directory)) for p in directory.rglob('*')
                           if p.is_file() and p != source and p.name not in CASE_METADATA)
    for key in ('shapes', 'sanitize', 'time'):
        if key not in directives:
            raise PrepareError(f'{source}: no @{key} line')
        if key != 'shapes' and len(directives[key]) != 1:
            raise PrepareError(f'{source}: @{key} takes one shape')
    return {
        'name': name,
        'source': source,
        'description': first_comment_paragraph(text),
        'shapes': [list(s) for s in directives['shapes']],
        'sanitize': list(directives['sanitize'][0]),
        'time': list(directives['time'][0]),
        'time_grow': directives['time-grow'],
        'original_not_lockstep': 'original' in directives,
        'project_files': project_files,
    }


def first_comment_paragraph(text):
    lines = []
    for line in text.splitlines():
        if not line.startswith('//') or line.strip() == '//':
            break
        lines.append(line[2:].strip())
    return ' '.join(lines)


def select_cases(names, patterns):
    if not patterns:
        return names
    chosen = [n for n in names if any(fnmatch.fnmatch(n, p) for p in patterns)]
    if not chosen:
        raise SystemExit(f'no case matches {", ".join(patterns)}; cases: {", ".join(names)}')
    return chosen


# ---------------------------------------------------------------------------
# warpfix's reports

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


# ---------------------------------------------------------------------------
# Expectations

def expectation_rows(findings):
    rows = []
    for f in sorted(findings, key=lambda f: (f.get('file') or '', f['line'], f['col'])):
        where = f"{f['file']}:" if f.get('file') else ''
        rows.append(f"{where}{f['line']}:{f['col']} {f['check']} {f['call']} "
                    f"{'fixable' if f['fixable'] else 'unfixable'}")
    return rows


def expectation_document(findings):
    fixable = sum(f['fixable'] for f in findings)
    return {
        'about': 'warpfix findings on the original file; written by '
                 '`run.py prepare --update-expectations`, compared by every prepare',
        'summary': {'findings': len(findings), 'fixable': fixable,
                    'unfixable': len(findings) - fixable},
        'findings': [{k: f[k] for k in ('line', 'col', 'check', 'call', 'fixable')}
                     | ({'file': f['file']} if f.get('file') else {})
                     for f in sorted(findings, key=lambda f: (f.get('file') or '', f['line'],
                                                              f['col']))],
    }


def compare_expectations(path, findings):
    """None when `path` lists exactly these findings, else what differs."""
    if not path.exists():
        return f'{path.name} is missing; warpfix reports:\n' + '\n'.join(
            expectation_rows(findings) or ['(no findings)'])
    expected = json.loads(path.read_text())['findings']
    want, got = expectation_rows(expected), expectation_rows(findings)
    if want == got:
        return None
    return '\n'.join(difflib.unified_diff(want, got, f'{path.name} (expected)',
                                          'warpfix (actual)', lineterm='', n=1))


# ---------------------------------------------------------------------------
# Legacy PTX, emulated

# A legacy shfl or vote in an asm template (the C spelling of it: inside a
# string literal), with its guard: what it did is the .sync form over the lanes
# that are active there, which activemask.b32 names.
LEGACY_PTX_RE = re.compile(
    r'(?P<guard>@(?P<neg>!?)(?P<pred>[%\w$]+)\s+)?'
    r'(?P<op>shfl|vote)\.(?P<form>(?!sync\b)[a-z]+\.(?:b32|pred))'
    r'(?P<operands>\s+[^;"]*?)\s*;')
ASM_RE = re.compile(r'\b(?:asm|__asm__|__asm)\b(?:\s+(?:volatile|__volatile__|inline|goto))*\s*\(')
EMULATED_MASK = 'wf_legacy_mask'  # a PTX register of the emulation's own scope


def c_tokens(text, start):
    """(kind, begin, end) of the C tokens from `start` that matter to an asm
    statement: string literals, parentheses, colons; comments and character
    literals are passed over."""
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            i = text.find('\n', i)
            i = n if i < 0 else i
        elif text.startswith('/*', i):
            i = text.find('*/', i + 2)
            i = n if i < 0 else i + 2
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            yield ('string' if c == '"' else 'char', i, j + 1)
            i = j + 1
        elif c in '():':
            yield (c, i, i + 1)
            i += 1
        else:
            i += 1


def emulated_instruction(m, extended):
    """The legacy instruction of match m as its .sync form over activemask.b32,
    in a scope of its own; a guarded one over the active lanes whose guard holds."""
    # In an extended template '%' is written '%%'; the guard's predicate is
    # copied as the template spells it.
    reg = ('%%' if extended else '%') + EMULATED_MASK
    parts = [f'.reg .b32 {reg};', f'activemask.b32 {reg};']
    if m['guard']:
        parts.append(f"vote.sync.ballot.b32 {reg}, {m['neg']}{m['pred']}, {reg};")
    parts.append(f"{m['guard'] or ''}{m['op']}.sync.{m['form']}{m['operands']}, {reg};")
    return '{ ' + ' '.join(parts) + ' }'


def emulate_legacy_ptx(text):
    """(text, count): each legacy shfl/vote in the asm templates of `text`
    rewritten to what it meant, so that nvcc 13 builds the original with its
    legacy semantics (what legacy_emulation.cuh does for the intrinsics).
    Raises PrepareError where an instruction cannot be emulated in place: one
    split over literals, or written by a macro."""
    edits = []  # (begin, end, replacement) in text
    for asm in ASM_RE.finditer(text):
        depth, colon, literals = 1, False, []
        for kind, b, e in c_tokens(text, asm.end()):
            if kind == '(':
                depth += 1
            elif kind == ')':
                depth -= 1
                if depth == 0:
                    break
            elif kind == ':' and depth == 1:
                colon = True
            elif kind == 'string' and depth == 1 and not colon:
                literals.append((b, e))
        for b, e in literals:
            body = text[b + 1:e - 1]
            for m in LEGACY_PTX_RE.finditer(body):
                edits.append((b + 1 + m.start(), b + 1 + m.end(),
                              emulated_instruction(m, extended=colon)))
    out, at = [], 0
    for b, e, replacement in sorted(edits):
        out += [text[at:b], replacement]
        at = e
    out.append(text[at:])
    result = ''.join(out)
    # Anything legacy left in a literal (a template a macro writes, an
    # instruction split over literals) would be built with the wrong meaning
    # or not at all: refuse rather than guess.
    for kind, b, e in c_tokens(result, 0):
        if kind == 'string' and re.search(r'\b(?:shfl|vote)\.(?!sync\b)[a-z]+\.', result[b:e]):
            line = result.count('\n', 0, b) + 1
            raise PrepareError(f'line {line}: legacy PTX that the emulation cannot rewrite '
                               'in place (outside an asm template, or split over literals)')
    return result, len(edits)


# ---------------------------------------------------------------------------
# Building with nvcc

def nvcc_version(nvcc):
    code, out, _ = run_command([nvcc, '--version'], cwd=HERE)
    m = re.search(r'release [\d.]+, V([\d.]+)', out)
    if code != 0 or not m:
        raise SystemExit(f'cannot run {nvcc} --version')
    return m[1]


def first_error(output):
    for line in output.splitlines():
        if re.search(r'\berror\b', line):
            return line.strip()
    return output.strip().splitlines()[-1] if output.strip() else ''


def build(nvcc, out_dir, args, log_path):
    """Runs nvcc in out_dir; returns {'ok', 'command', 'log', 'error'}."""
    command = [nvcc] + args
    code, stdout, stderr = run_command(command, cwd=out_dir, timeout=600)
    log_path.write_text(f'$ {shell_line(command)}\n{stdout}{stderr}exit {code}\n')
    return {'ok': code == 0, 'command': shell_line(command),
            'log': str(log_path.relative_to(out_dir)),
            'error': first_error(stdout + stderr) if code else None}


# A project's units include harness.h by name, from the out folder (nvcc's
# working directory).
HARNESS_INCLUDE = ['-I.']


def cubin_output(case_dir, stem, sources):
    """nvcc's arguments that name where the cubins of `sources` go: one file,
    or, for the units of a project, one folder."""
    if len(sources) == 1:
        return ['-o', str(case_dir / f'{stem}.cubin')]
    return ['-odir', str(case_dir / f'{stem}.cubins')]


def build_case(nvcc, out_dir, name, emulate_rewritten, expect_bare_failure,
               src_orig_emulated, src_rw, src_orig):
    """The four nvcc runs of a case: the rewritten program src_rw, the
    original as emulated (src_orig_emulated, with legacy_emulation.cuh), and
    the original as it is (src_orig). Each is a list of sources, the units of
    one program. Returns (builds, problems)."""
    case_dir = Path('cases') / name
    logs = out_dir / case_dir
    emulation = ['-include', 'legacy_emulation.cuh']
    rewritten_emulation = emulation if emulate_rewritten else []
    if len(src_orig) > 1:
        for stem in (f'rewritten.{CHECK_ARCH}', 'original.bare'):
            (out_dir / case_dir / f'{stem}.cubins').mkdir()
    builds = {
        'rewritten_' + CHECK_ARCH: build(nvcc, out_dir, [*HARNESS_INCLUDE,
            '-cubin', f'-arch={CHECK_ARCH}', *WERROR, *rewritten_emulation,
            *cubin_output(case_dir, f'rewritten.{CHECK_ARCH}', src_rw), *src_rw],
            logs / f'build-rewritten-{CHECK_ARCH}.log'),
        'rewritten_' + RUN_ARCH: build(nvcc, out_dir, [*HARNESS_INCLUDE,
            f'-arch={RUN_ARCH}', '-lineinfo', *HOST_OPTIMIZATION, *WERROR,
            *rewritten_emulation, '-o', f'bin/{name}.rewritten', *src_rw],
            logs / f'build-rewritten-{RUN_ARCH}.log'),
        'original_emulated_' + RUN_ARCH: build(nvcc, out_dir, [*HARNESS_INCLUDE,
            f'-arch={RUN_ARCH}', '-lineinfo', *HOST_OPTIMIZATION, *WERROR, *emulation,
            '-o', f'bin/{name}.original', *src_orig_emulated],
            logs / f'build-original-{RUN_ARCH}.log'),
        'original_bare_' + RUN_ARCH: build(nvcc, out_dir, [*HARNESS_INCLUDE,
            '-cubin', f'-arch={RUN_ARCH}', *cubin_output(case_dir, 'original.bare', src_orig),
            *src_orig], logs / f'build-original-bare-{RUN_ARCH}.log'),
    }
    problems = [f'{key} failed: {b["error"]} (see {b["log"]})'
                for key, b in builds.items() if key != 'original_bare_' + RUN_ARCH and not b['ok']]
    bare = builds['original_bare_' + RUN_ARCH]
    bare['expected_to_fail'] = expect_bare_failure
    if bare['ok'] == expect_bare_failure:
        problems.append(
            'nvcc builds the original without legacy_emulation.cuh although warpfix reports '
            'legacy intrinsics, legacy PTX or removed runtime calls' if bare['ok'] else
            f'nvcc rejects the original without legacy_emulation.cuh ({bare["error"]}) although '
            'warpfix reports no legacy intrinsic, no legacy PTX and no removed runtime call')
    return builds, problems


# ---------------------------------------------------------------------------
# prepare

def prepare_out_dir(out_dir):
    """Empties out_dir, refusing to touch a folder that is not one of ours."""
    if out_dir.exists() and any(out_dir.iterdir()) and not (out_dir / OUT_MARKER).exists():
        raise SystemExit(f'{out_dir} is not empty and was not written by run.py: not deleting it')
    shutil.rmtree(out_dir, ignore_errors=True)
    (out_dir / 'bin').mkdir(parents=True)
    (out_dir / OUT_MARKER).write_text('written by run.py prepare, which empties it each time\n')
    (out_dir / 'cases').mkdir()
    for name in SUPPORT_FILES:
        shutil.copy2(HERE / name, out_dir / name)
    if (HERE / TIMING_NOTES).exists():  # RESULTS.md written there includes them
        shutil.copy2(HERE / TIMING_NOTES, out_dir / TIMING_NOTES)
    shutil.copy2(Path(__file__).resolve(), out_dir / 'run.py')


def note_reason(finding):
    """The note that says why a finding has no fix (the first note otherwise)."""
    for note in finding['notes']:
        if note.startswith('no automatic fix'):
            return note
    return finding['notes'][0] if finding['notes'] else ''


def check_expectations(case, findings, update):
    """(status, problem or None) of the findings against the case's expect.json,
    which `update` rewrites instead."""
    expect_path = case['source'].parent / 'expect.json'
    diff = compare_expectations(expect_path, findings)
    if not diff:
        return 'match', None
    if update:
        expect_path.write_text(json.dumps(expectation_document(findings), indent=2) + '\n')
        return 'updated', None
    return 'mismatch', (f'warpfix findings differ from {expect_path.relative_to(HERE)} '
                        '(if the change is intended: run.py prepare --update-expectations)\n'
                        + diff)


def finding_summary(f, with_fixable=True):
    keys = ('line', 'col', 'check', 'call') + (('fixable',) if with_fixable else ())
    return dict({k: f[k] for k in keys}, reason=note_reason(f), notes=f['notes'])


def prepare_case(case, args, out_dir):
    """Analyses, rewrites and builds one case in out_dir/cases/<name>; returns
    its manifest record, whose `problems` say what went wrong."""
    name = case['name']
    work = out_dir / 'cases' / name
    work.mkdir()
    project = bool(case['project_files'])
    if project:
        # Each version is a copy of the case's folder, analysed and fixed
        # whole, as warpfix is run over a user's project.
        original, rewritten = work / 'original', work / 'rewritten'
        for folder in (original, rewritten):
            shutil.copytree(case['source'].parent, folder,
                            ignore=shutil.ignore_patterns(*CASE_METADATA))
    else:
        original, rewritten = work / 'original.cu', work / 'rewritten.cu'
        shutil.copy2(case['source'], original)
        shutil.copy2(case['source'], rewritten)
    main_of = {v: (work / v / case['source'].name) if project else None
               for v in ('original', 'rewritten')}
    # A project's units include harness.h by name, from the out folder.
    compiler_args = [f'-I{out_dir}'] if project else []
    # A case's own .warpfix.yaml (check options) applies to both copies.
    config = Path(case['source']).parent / '.warpfix.yaml'
    if config.exists():
        shutil.copy2(config, work / '.warpfix.yaml')
    record = {k: case[k] for k in ('name', 'description', 'shapes', 'sanitize', 'time',
                                   'time_grow', 'original_not_lockstep')}
    record.update(problems=[], ok=False)
    try:
        findings = analyse(args.warpfix, original, work, main_of['original'], compiler_args)
    except PrepareError as e:
        record['problems'].append(str(e))
        return record
    record['findings'] = [finding_summary(f) for f in findings]
    record['summary'] = {'findings': len(findings), 'fixable': sum(f['fixable'] for f in findings)}
    record['expectations'], problem = check_expectations(case, findings,
                                                         args.update_expectations)
    record['problems'] += [problem] if problem else []

    try:
        passes, fixed, remaining = fix_in_place(args.warpfix, rewritten, findings,
                                                main_of['rewritten'], compiler_args)
        record['fix'] = {'passes': passes, 'fixed': fixed,
                         'remaining': [finding_summary(f, False) for f in remaining]}
        emulate = any(needs_emulation(f) for f in remaining)
    except PrepareError as e:
        # Build anyway: nvcc's errors on a broken rewrite are worth having.
        record['problems'].append(str(e) if '(see ' in str(e) else f'{e} (see {work / "fix.txt"})')
        emulate = False
    record['rewritten_uses_emulation'] = emulate

    # The original keeps its legacy meaning: legacy_emulation.cuh for the
    # intrinsics, and each legacy PTX instruction rewritten to what it did.
    # Written beside original.cu, which stays as it is for the bare build; the
    # same for a rewrite that still holds legacy PTX.
    sources = {}
    for version, path, wanted in (('original', original, True), ('rewritten', rewritten, emulate)):
        units = sorted(path.rglob('*.cu')) if project else [path]
        sources[version] = [str(u.relative_to(out_dir)) for u in units]
        if not wanted:
            continue
        try:
            emulated = [emulate_legacy_ptx(u.read_text()) for u in units]
        except PrepareError as e:
            record['problems'].append(f'{version}: {e}')
            continue
        count = sum(c for _, c in emulated)
        record[f'{version}_ptx_emulated'] = count
        if count and project:
            record['problems'].append(f'{version}: legacy PTX in a case of several files, '
                                      'whose emulation prepare does not write')
        elif count:
            emulated_path = work / f'{version}.emulated.cu'
            emulated_path.write_text(emulated[0][0])
            sources[version] = [str(emulated_path.relative_to(out_dir))]

    legacy = any(needs_emulation(f) for f in findings)
    builds, build_problems = build_case(
        args.nvcc, out_dir, name, emulate, legacy, sources['original'],
        sources['rewritten'],
        [str(u.relative_to(out_dir)) for u in sorted(original.rglob('*.cu'))] if project
        else [str(original.relative_to(out_dir))])
    record['builds'] = builds
    record['binaries'] = {
        'original': f'bin/{name}.original' if builds['original_emulated_' + RUN_ARCH]['ok'] else None,
        'rewritten': f'bin/{name}.rewritten' if builds['rewritten_' + RUN_ARCH]['ok'] else None,
    }
    record['problems'] += build_problems
    record['ok'] = not record['problems']
    return record


def describe_prepared(record):
    if 'summary' not in record:
        return 'warpfix could not analyse it'
    s, fix = record['summary'], record.get('fix')
    text = f"{plural(s['findings'], 'finding')} ({s['fixable']} fixable)"
    if fix:
        text += (f", {fix['fixed']} fixed"
                 f"{' in ' + str(fix['passes']) + ' passes' if fix['passes'] > 1 else ''}, "
                 f"{len(fix['remaining'])} remain")
    if record.get('rewritten_uses_emulation'):
        text += '; rewritten still has legacy calls: built with legacy_emulation.cuh'
    return text


def command_prepare(args):
    started = time.time()
    args.warpfix = str(Path(args.warpfix).resolve())
    if not os.access(args.warpfix, os.X_OK):
        raise SystemExit(f'no warpfix binary at {args.warpfix} (build it, or pass --warpfix)')
    code, version, _ = run_command([args.warpfix, '--version'], cwd=HERE)
    out_dir = Path(args.out).resolve()
    names = select_cases(sorted(p.name for p in (HERE / 'cases').iterdir() if p.is_dir()),
                         args.case)
    try:
        cases = [read_case(HERE / 'cases' / n) for n in names]
    except PrepareError as e:
        raise SystemExit(str(e))
    prepare_out_dir(out_dir)
    manifest = {
        'created': datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds'),
        'warpfix': version.strip(),
        'nvcc': nvcc_version(args.nvcc),
        'run_arch': RUN_ARCH,
        'check_arch': CHECK_ARCH,
        'cases': [],
    }
    log(f'preparing {len(cases)} cases into {out_dir} with {manifest["warpfix"]}, '
        f'nvcc {manifest["nvcc"]}, {args.jobs} jobs')
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(prepare_case, c, args, out_dir): c['name'] for c in cases}
        for future in concurrent.futures.as_completed(futures):
            record = future.result()
            manifest['cases'].append(record)
            log(f"{'ok  ' if record['ok'] else 'FAIL'} {record['name']}: "
                f'{describe_prepared(record)}')
            for problem in record['problems']:
                log(indent(problem, '     ', max_lines=25))
    manifest['cases'].sort(key=lambda r: r['name'])
    manifest['prepare_seconds'] = round(time.time() - started, 1)
    (out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2) + '\n')
    failed = [r['name'] for r in manifest['cases'] if not r['ok']]
    log(f'\nprepared {len(cases) - len(failed)}/{len(cases)} cases in '
        f'{manifest["prepare_seconds"]} s; {len(failed)} failed'
        + (f': {", ".join(failed)}' if failed else ''))
    log(f'on a GPU machine: python3 {os.path.relpath(out_dir / "run.py")} run '
        f'{os.path.relpath(out_dir)}')
    return 1 if failed else 0


# ---------------------------------------------------------------------------
# run (GPU machine)

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


def find_sanitizer(explicit):
    candidates = [explicit] if explicit else [
        shutil.which('compute-sanitizer'),
        *(os.path.join(os.environ[v], 'bin', 'compute-sanitizer')
          for v in ('CUDA_HOME', 'CUDA_PATH') if v in os.environ),
        '/usr/local/cuda/bin/compute-sanitizer',
        '/usr/local/cuda/compute-sanitizer/compute-sanitizer',
    ]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    raise SystemExit('compute-sanitizer not found (pass --sanitizer)')


def device_info():
    code, out, _ = run_command(['nvidia-smi', '--query-gpu=name,driver_version',
                                '--format=csv,noheader'], cwd=HERE, timeout=60) \
        if shutil.which('nvidia-smi') else (1, '', '')
    if code != 0 or not out.strip():
        return {'name': 'unknown', 'driver': 'unknown'}
    name, _, driver = out.strip().splitlines()[0].rpartition(',')
    return {'name': name.strip(), 'driver': driver.strip()}


def plan_case(record, mode):
    """The program runs of one case, as (version, shape, seed, launches, tool):
    both versions on every shape and seed, then the sanitizers on one small
    shape, one launch (racecheck alone on the original, for its hazard count)."""
    shapes = record['shapes'][:mode['shapes']] if mode['shapes'] else record['shapes']
    tasks = [(version, tuple(shape), seed, mode['launches'], None)
             for shape in shapes for seed in mode['seeds'] for version in ('original', 'rewritten')]
    small = tuple(record['sanitize'])
    tasks.append(('original', small, 1, 1, 'racecheck'))
    tasks += [('rewritten', small, 1, 1, tool) for tool in ('racecheck', 'synccheck', 'memcheck')]
    return tasks


def reported_races(record):
    """Races warpfix found and left in the rewritten program, saying so."""
    remaining = (record.get('fix') or {}).get('remaining', [])
    return sum(f['check'] == RACE_CHECK for f in remaining)


def sanitizer_failure(record, tool, result):
    """Why the rewritten program's run under `tool` fails the case, or None.
    Hazards that racecheck sees where warpfix itself reports a race it could
    not fix are no failure: the tool told its user (RESULTS.md lists them)."""
    if result['status'] != 'ok':
        return f"rewritten under {tool}: {result['status']} {result['detail']}"
    if result['findings'] is None:
        return f'rewritten under {tool}: no summary line'
    if result['findings'] and not (tool == 'racecheck' and reported_races(record)):
        return f"rewritten under {tool}: {result['findings']} findings"
    return None


def summarise_case(record, runs):
    """Verdict and table fields of one case from its runs."""
    checks = [r for r in runs if 'tool' not in r]
    sanitized = {(r['version'], r['tool']): r for r in runs if 'tool' in r}
    failures, notes = [], []
    for version in ('original', 'rewritten'):
        mine = [r for r in checks if r['version'] == version]
        bad = [r for r in mine if r['status'] != 'ok']
        if bad:
            first = bad[0]
            text = (f"{version}: {len(bad)}/{len(mine)} runs failed, e.g. "
                    f"{format_shape(first['shape'])} seed {first['seed']}: "
                    f"{first['status']} {first['detail']}")
            # A crash or a hang of the original still decides the case.
            if (version == 'original' and record.get('original_not_lockstep')
                    and all(r['status'] == 'mismatch' for r in bad)):
                notes.append(text + ' (@original not-lockstep: the emulation '
                             'is not lockstep in divergent loops)')
            else:
                failures.append(text)
    for tool in ('racecheck', 'synccheck', 'memcheck'):
        failure = sanitizer_failure(record, tool, sanitized[('rewritten', tool)])
        if failure:
            failures.append(failure)
    before = sanitized[('original', 'racecheck')]
    return {
        'configurations': len({(tuple(r['shape']), r['seed']) for r in checks}),
        'program_runs': len(checks),
        'launches_checked': sum(r['launches'] for r in checks if r['status'] == 'ok'),
        'outputs_equal': all(r['status'] == 'ok' for r in checks
                             if not (r['version'] == 'original' and notes)),
        'notes': notes,
        'racecheck_before': before.get('findings'),
        'racecheck_after': sanitized[('rewritten', 'racecheck')].get('findings'),
        'races_reported_unfixed': reported_races(record),
        'synccheck_after': sanitized[('rewritten', 'synccheck')].get('findings'),
        'memcheck_after': sanitized[('rewritten', 'memcheck')].get('findings'),
        'failures': failures,
        'ok': not failures,
    }


def is_problem(record, result):
    """A run that fails the case: a wrong or missing result, or a sanitizer
    finding on the rewritten program that warpfix did not report."""
    if result['status'] != 'ok':
        return True
    return result.get('tool') is not None and result['version'] == 'rewritten' \
        and sanitizer_failure(record, result['tool'], result) is not None


def format_shape(shape):
    return f'{shape[0]}x{shape[1]}:{shape[2]}'


def execute(tasks, out_dir, sanitizer, jobs, on_done):
    """Runs (record, task) pairs in parallel; calls on_done(record, result) for each."""
    def one(item):
        record, (version, shape, seed, launches, tool) = item
        result = run_program(out_dir, record['binaries'][version], shape, seed, launches,
                             sanitizer, tool)
        result['version'] = version
        return record, result

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for future in concurrent.futures.as_completed([pool.submit(one, t) for t in tasks]):
            on_done(*future.result())


def run_checks(runnable, mode, out_dir, sanitizer, jobs):
    """Every check and sanitizer run of every case, in parallel; prints each
    failure as it comes and a line per case when its runs are done."""
    runs = collections.defaultdict(list)
    planned = {r['name']: plan_case(r, mode) for r in runnable}
    pending = {name: len(tasks) for name, tasks in planned.items()}

    def on_done(record, result):
        name = record['name']
        runs[name].append(result)
        pending[name] -= 1
        if is_problem(record, result):
            under = f" under {result['tool']}" if result.get('tool') else ''
            log(f"  {name}: {result['version']}{under} "
                f"{format_shape(result['shape'])} seed {result['seed']}: {result['status']} "
                f"{result['detail']}" + (f"; sanitizer findings: {cell(result['findings'])}"
                                         if result.get('tool') else ''))
        if pending[name] == 0:
            checks = [r for r in runs[name] if 'tool' not in r]
            ok = sum(r['status'] == 'ok' for r in checks)
            log(f"{name}: {ok}/{len(checks)} runs match the reference; "
                + ', '.join(f"{r['tool']} {r['version']} {cell(r['findings'])}"
                            for r in runs[name] if 'tool' in r))

    execute([(r, t) for r in runnable for t in planned[r['name']]], out_dir, sanitizer, jobs,
            on_done)
    return runs


# ---------------------------------------------------------------------------
# Timing (GPU machine)
#
# A case's kernels at its check shapes run for about 10 us, which is mostly
# launch cost: ratios of such times scatter by +-25% and prove nothing. So each
# case's @time shape is grown (TIME_GROW_DIMS) until one launch of the original
# runs for at least TIME_TARGET_MS, and three programs are timed at that
# shape, alive at once in serve mode (harness.h): the original, the rewritten
# program, and the original again. Each round launches each once, in an order
# that rotates from round to round, so that clock and thermal drift hit all
# three alike. The medians give rewritten/original, the ratio, and
# original-again/original, the noise of this very measurement.

TIME_TARGET_MS = 1.0  # one timed launch of the original runs at least this long
TIME_AIM_MS = 1.4  # what calibration aims for: above the target, with margin
TIME_WARMUP_ROUNDS = 3  # rounds before the recorded ones, not recorded
TIME_CALIBRATION_LAUNCHES = 5
TIME_CALIBRATION_THREADS = 1 << 22  # threads of the smaller calibration run
TIME_SESSION_TIMEOUT_S = 300
TIMED = ('original', 'rewritten', 'original_again')
BINARY_OF = {'original': 'original', 'rewritten': 'rewritten', 'original_again': 'original'}
SHUFFLE_VOTE = 'shuffle/vote rewrite'
SYNCWARP = '__syncwarp inserted'
# Issue 18's targets for rewritten/original, by what warpfix changed in the case.
RATIO_TARGETS = {SHUFFLE_VOTE: 1.03, SYNCWARP: 1.10}
SYNCWARP_CALL_RE = re.compile(r'\b__syncwarp\s*\(')
TIMING_NOTES = 'timing-notes.md'  # explanations of slowdowns, appended to RESULTS.md

MEETS, WITHIN_NOISE, SLOWDOWN = 'meets target', 'within noise', 'SLOWDOWN: to explain'
TOO_SHORT, TIMING_FAILED = 'too short: not counted', 'failed'


def rewrite_class(out_dir, record):
    """SYNCWARP where warpfix inserted a __syncwarp (it fixed a
    warp-missing-syncwarp finding, or the rewrite calls __syncwarp more often
    than the original), else SHUFFLE_VOTE."""
    fixed_races = (sum(f['check'] == RACE_CHECK for f in record.get('findings') or [])
                   - reported_races(record))
    calls = []
    for version in ('original', 'rewritten'):
        path = out_dir / 'cases' / record['name'] / f'{version}.cu'
        folder = path.with_suffix('')
        files = [path] if path.exists() else sorted(folder.rglob('*.cu*')) if folder.is_dir() else []
        calls.append(sum(len(SYNCWARP_CALL_RE.findall(f.read_text())) for f in files))
    return SYNCWARP if fixed_races > 0 or calls[1] > calls[0] else SHUFFLE_VOTE


def time_grow(record):
    return record.get('time_grow') or parse_time_grow([])


def grown_shape(record, factor):
    """The case's @time shape grown by `factor` along its @time-grow dimensions."""
    block_size, num_blocks, n = record['time']
    dims = time_grow(record)['dims']
    return (block_size, num_blocks * factor if 'blocks' in dims else num_blocks,
            n * factor if 'n' in dims else n)


def max_factor(record):
    block_size, num_blocks, n = record['time']
    grow = time_grow(record)
    if not grow['dims']:
        return 1
    limit = TIME_MAX_ELEMENTS // (block_size * num_blocks)
    if 'n' in grow['dims'] and n:
        limit = min(limit, grow['max_n'] // n)
    return max(1, limit)


def calibrate(out_dir, record):
    """(factor, runs): the factor by which to grow the case's timing shape so
    that one launch of the original takes about TIME_AIM_MS, from the
    original's median time at two sizes (the difference removes the launch
    cost, which does not grow). factor is None if a run failed."""
    top = max_factor(record)
    if top == 1:
        return 1, []
    threads = record['time'][0] * record['time'][1]
    small = min(top, max(1, TIME_CALIBRATION_THREADS // threads))
    large = min(top, small * 8)
    runs = []
    for factor in sorted({small, large}):
        result = run_program(out_dir, record['binaries']['original'],
                             grown_shape(record, factor), 1, TIME_CALIBRATION_LAUNCHES)
        runs.append(dict(result, factor=factor))
        if result['status'] != 'ok' or not result['time_ms']:
            return None, runs
    if len(runs) == 1:
        return top, runs
    (f0, t0), (f1, t1) = [(r['factor'], r['time_ms']) for r in runs]
    slope = (t1 - t0) / (f1 - f0)
    # Scaling t1 alone underestimates the factor (t1 includes the launch
    # cost); a slope that noise made too flat must not overestimate it by
    # more than 4 times that, which could exhaust the GPU's memory.
    scaled = math.ceil(f1 * TIME_AIM_MS / t1)
    factor = min(math.ceil(f1 + (TIME_AIM_MS - t1) / slope), 4 * scaled) if slope > 0 \
        else scaled
    return max(1, min(top, factor)), runs


class TimedProgram:
    """A case program in serve mode (harness.h): it launches its kernel once
    for every `time` it reads, printing `SAMPLE <ms>`."""

    def __init__(self, out_dir, binary, shape):
        self.command = [str(out_dir / binary), *map(str, shape), '1', '1', 'serve']
        self.output = []
        self.proc = subprocess.Popen(self.command, cwd=out_dir, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, errors='replace', bufsize=1)

    def read_until(self, prefix):
        """The rest of the next line that starts with `prefix`; None if the
        program printed a RESULT line (what went wrong) or ended first."""
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.rstrip('\n')
            self.output.append(line)
            if line.startswith(prefix):
                return line[len(prefix):].strip()
            if line.startswith('RESULT'):
                return None

    def send(self, request):
        try:
            self.proc.stdin.write(request + '\n')
            self.proc.stdin.flush()
            return True
        except (OSError, ValueError):  # it has ended
            return False

    def sample(self):
        """One launch's time in ms, or None if the program failed."""
        if not self.send('time'):
            return None
        value = self.read_until('SAMPLE ')
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None

    def end(self):
        """Asks the program to check its outputs and exit."""
        self.send('end')
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def result(self, killed):
        """{'status', 'detail'} once it has ended, as program_result reads them."""
        self.output += self.proc.stdout.read().splitlines()
        self.proc.stdout.close()
        code = self.proc.wait()
        text = '\n'.join(self.output) + '\n'
        status, detail, _ = program_result(124 if killed else code, text)
        result = {'status': status, 'detail': detail}
        if status != 'ok':
            result['output'] = text[-2000:]
        return result


def time_session(out_dir, record, shape, rounds):
    """Times the TIMED programs at `shape`, interleaved: returns
    {'samples': {version: [ms]}, 'programs': {version: result}, 'failure'}."""
    programs, samples = {}, {v: [] for v in TIMED}
    killed = threading.Event()

    def kill_all():
        killed.set()
        for program in list(programs.values()):
            program.proc.kill()

    watchdog = threading.Timer(TIME_SESSION_TIMEOUT_S, kill_all)
    watchdog.start()
    failure = None
    try:
        for version in TIMED:  # they set up in parallel, each on its own CPU
            programs[version] = TimedProgram(out_dir, record['binaries'][BINARY_OF[version]],
                                             shape)
        for version in TIMED:
            if programs[version].read_until('READY') is None:
                failure = f'{version} did not start'
                break
        for i in range(0 if failure else TIME_WARMUP_ROUNDS + rounds):
            order = TIMED[i % len(TIMED):] + TIMED[:i % len(TIMED)]
            for version in order:
                ms = programs[version].sample()
                if ms is None:
                    failure = f'{version} failed in round {i + 1}'
                    break
                if i >= TIME_WARMUP_ROUNDS:
                    samples[version].append(ms)
            if failure:
                break
    finally:
        for program in programs.values():  # they check their outputs in parallel
            program.end()
        results = {v: p.result(killed.is_set()) for v, p in programs.items()}
        watchdog.cancel()
    bad = [f"{v}: {r['status']} {r['detail']}" for v, r in results.items() if r['status'] != 'ok']
    if killed.is_set():
        failure = f'killed after {TIME_SESSION_TIMEOUT_S} s'
    if bad:
        failure = (failure + '; ' if failure else '') + '; '.join(bad)
    return {'samples': samples, 'programs': results, 'failure': failure}


def ratio_verdict(median_ms, target):
    """(ratio, noise, band, verdict) from the three medians. The noise band is
    [min(q, 1/q), max(q, 1/q)] for q = original_again / original: how far two
    timings of the same program lay apart in this run. A ratio above its
    target counts as a slowdown only if it also lies above the band."""
    original = median_ms['original']
    ratio = median_ms['rewritten'] / original
    noise = median_ms['original_again'] / original
    band = [min(noise, 1 / noise), max(noise, 1 / noise)]
    if original < TIME_TARGET_MS:
        verdict = TOO_SHORT
    elif ratio <= target:
        verdict = MEETS
    elif ratio <= band[1]:
        verdict = WITHIN_NOISE
    else:
        verdict = SLOWDOWN
    return ratio, noise, band, verdict


def summarise_timing(name, cls, grow, top, calibration, factor, shape, session, sessions, rounds,
                     seconds):
    target = RATIO_TARGETS[cls]
    entry = {
        'name': name, 'class': cls, 'target': target, 'grow': grow['dims'], 'factor': factor,
        'max_factor': top, 'shape': list(shape) if shape else None, 'rounds': rounds,
        'sessions': sessions,
        'calibration': [{k: r.get(k) for k in ('factor', 'shape', 'time_ms', 'status', 'detail')}
                        for r in calibration],
        'median_ms': None, 'ratio': None, 'noise': None, 'band': None, 'verdict': TIMING_FAILED,
        'failure': None, 'seconds': seconds,
    }
    if session is None:
        bad = [r for r in calibration if r['status'] != 'ok' or not r['time_ms']]
        entry['failure'] = 'calibration: ' + (
            f"{format_shape(bad[0]['shape'])}: {bad[0]['status']} {bad[0]['detail']}"
            if bad else 'no time')
        return entry
    entry['programs'] = session['programs']
    if session['failure']:
        entry['failure'] = session['failure']
        return entry
    median_ms = {v: statistics.median(session['samples'][v]) for v in TIMED}
    ratio, noise, band, verdict = ratio_verdict(median_ms, target)
    entry.update(median_ms={v: round(t, 5) for v, t in median_ms.items()}, ratio=round(ratio, 4),
                 noise=round(noise, 4), band=[round(b, 4) for b in band], verdict=verdict,
                 samples_ms={v: [round(t, 5) for t in session['samples'][v]] for v in TIMED})
    return entry


def run_timing(runnable, mode, out_dir, budget_s=None):
    """Times each case as described above, one case at a time, so that nothing
    else shares the GPU. Starts no case after budget_s seconds, but the first.
    Returns (one entry per case timed, names of the cases left)."""
    log(f"timing, one case at a time: {mode['time_rounds']} interleaved launches of the "
        f"original, the rewritten program and the original again, each at least "
        f"{TIME_TARGET_MS} ms...")
    entries, phase_started = [], time.time()
    for i, r in enumerate(runnable):
        if i and budget_s is not None and time.time() - phase_started > budget_s:
            left = [x['name'] for x in runnable[i:]]
            log(f"time budget of {budget_s} s spent: {len(left)} cases not timed: "
                + ' '.join(left))
            return entries, left
        started = time.time()
        cls, grow, top = rewrite_class(out_dir, r), time_grow(r), max_factor(r)
        factor, calibration = calibrate(out_dir, r)
        session, shape, sessions = None, None, 0
        while factor is not None:
            shape = grown_shape(r, factor)
            session = time_session(out_dir, r, shape, mode['time_rounds'])
            sessions += 1
            original = (statistics.median(session['samples']['original'])
                        if session['samples']['original'] else None)
            # Calibration is linear; should a kernel not be, grow it once more.
            if (session['failure'] or sessions == 2 or factor == top
                    or original >= TIME_TARGET_MS):
                break
            factor = min(top, max(factor + 1, math.ceil(factor * TIME_AIM_MS / original)))
        entry = summarise_timing(r['name'], cls, grow, top, calibration, factor, shape, session,
                                 sessions, mode['time_rounds'], round(time.time() - started, 1))
        entries.append(entry)
        log(timing_log_line(entry))
    return entries, []


def timing_log_line(t):
    if t['failure']:
        return f"{t['name']}: timing FAILED: {t['failure']}"
    m = t['median_ms']
    return (f"{t['name']}: x{t['factor']} {format_shape(t['shape'])}, original {m['original']:.3f} "
            f"ms, rewritten/original {t['ratio']:.3f}, noise {t['noise']:.3f}, target "
            f"{t['target']:.2f} ({t['class']}): {t['verdict']} ({t['seconds']} s)")


def timing_rows(timing):
    rows = ['| case | class | shape timed (growth) | original ms | rewritten/original | '
            'noise band | target | verdict |',
            '|---|---|---|---|---|---|---|---|']
    for t in timing['cases']:
        shape = f"{format_shape(t['shape'])} (x{t['factor']})" if t['shape'] else '-'
        if t['failure']:
            rows.append(f"| {t['name']} | {t['class']} | {shape} | - | - | - | "
                        f"{t['target']:.2f} | failed: {t['failure'].splitlines()[0]} |")
            continue
        band = f"{t['band'][0]:.3f} to {t['band'][1]:.3f}"
        rows.append(f"| {t['name']} | {t['class']} | {shape} | {t['median_ms']['original']:.3f} | "
                    f"{t['ratio']:.3f} | {band} | {t['target']:.2f} | {t['verdict']} |")
    return rows


def timing_markdown(timing, level):
    d = timing['device']
    counts = collections.Counter(t['verdict'] for t in timing['cases'])
    lines = [
        f'{level} Timing',
        '',
        f"Device: {d['name']}, driver {d['driver']}. Date: {timing['date']}. "
        f"Mode: {timing['mode']}, {timing['rounds']} timed launches per program. "
        f"Run time: {timing['seconds']} s.",
        '',
        "Each case's `@time` shape is grown (numBlocks, and n unless the case says "
        "otherwise, by the factor shown) until one launch of the original runs for at least "
        f"{timing['target_ms']:g} ms; \"original ms\" is its median. Three programs are timed at "
        'that shape, alive at once: the original, the rewritten program and the original again. '
        f"Each round launches each of them once, in an order that rotates; after "
        f"{TIME_WARMUP_ROUNDS} rounds of warm-up, {timing['rounds']} rounds are recorded, and "
        'medians are compared. rewritten/original is the ratio; q = original again / original '
        'is the noise of this measurement, and the noise band is [min(q, 1/q), max(q, 1/q)]. '
        'Targets: rewritten/original <= '
        + ', <= '.join(f'{v:.2f} for a {k}' for k, v in timing['targets'].items())
        + '. A ratio above its target is a slowdown only if it also lies above the noise '
        'band; a case whose original stays under '
        f"{timing['target_ms']:g} ms (its size is fixed, or its growth capped) is not "
        'counted. Nothing here is asserted: every verdict is reported.',
        '',
        'Verdicts: ' + ', '.join(f'{n} {v}' for v, n in sorted(counts.items())) + '.',
        '',
    ] + timing_rows(timing)
    if timing.get('not_timed'):
        lines += ['', f"Not timed (the run's --time-budget was spent): "
                      f"{', '.join(timing['not_timed'])}."]
    slow = [t for t in timing['cases'] if t['verdict'] == SLOWDOWN]
    if slow:
        lines += ['', f'{level}# Slowdowns to explain', '']
        lines += [f"- {t['name']} ({t['class']}): rewritten/original {t['ratio']:.3f} > "
                  f"{t['target']:.2f}, noise band {t['band'][0]:.3f} to {t['band'][1]:.3f}"
                  for t in slow]
    return lines


def timing_summary_json(results, source):
    """The timing section of a results.json without the samples: what
    scripts/bench.sh prints."""
    timing = results['timing']
    return {
        'source': str(source),
        'warpfix': results.get('warpfix'),
        **{k: timing[k] for k in ('device', 'date', 'mode', 'rounds', 'target_ms', 'targets',
                                  'seconds')},
        'cases': [{k: t.get(k) for k in ('name', 'class', 'target', 'shape', 'factor',
                                         'median_ms', 'ratio', 'noise', 'band', 'verdict',
                                         'failure')}
                  for t in timing['cases']],
        'not_timed': timing.get('not_timed', []),
    }


def case_results(records, runnable, runs):
    runnable_names = {r['name'] for r in runnable}
    entries = []
    for r in records:
        entry = {k: r.get(k) for k in ('name', 'summary', 'fix', 'rewritten_uses_emulation',
                                       'expectations', 'problems')}
        if r['name'] in runnable_names:
            entry.update(summarise_case(r, runs[r['name']]))
            entry['runs'] = runs[r['name']]
        else:
            why = '; '.join(p.splitlines()[0] for p in r.get('problems', []))
            entry.update(ok=False, failures=['not built: ' + (why or 'no binaries')])
        entries.append(entry)
    return entries


def command_run(args):
    out_dir = Path(args.folder or HERE).resolve()
    if not (out_dir / MANIFEST).exists():
        raise SystemExit(f'{out_dir} has no {MANIFEST}: run `run.py prepare` first')
    manifest = json.loads((out_dir / MANIFEST).read_text())
    mode = QUICK if args.quick else FULL
    sanitizer = find_sanitizer(args.sanitizer)
    names = select_cases([r['name'] for r in manifest['cases']], args.case)
    records = [r for r in manifest['cases'] if r['name'] in names]
    runnable = [r for r in records if r.get('binaries') and all(r['binaries'].values())]
    device = device_info()
    started = time.time()
    phases = ('checks and sanitizers' if not args.timing_only else '') + \
        (' and ' if not (args.timing_only or args.no_timing) else '') + \
        ('timing' if not args.no_timing else '')
    log(f"running {len(runnable)} cases on {device['name']} (driver {device['driver']}), "
        f"{'quick' if args.quick else 'full'} mode: {phases}; {args.jobs} jobs; "
        f"sanitizer {sanitizer}")

    cases = None
    if not args.timing_only:
        runs = run_checks(runnable, mode, out_dir, sanitizer, args.jobs)
        cases = case_results(records, runnable, runs)
    timing = None
    if not args.no_timing:
        timing_started = time.time()
        timing = {
            'device': device,
            'date': now(),
            'mode': 'quick' if args.quick else 'full',
            'rounds': mode['time_rounds'],
            'target_ms': TIME_TARGET_MS,
            'targets': RATIO_TARGETS,
        }
        timing['cases'], timing['not_timed'] = run_timing(runnable, mode, out_dir,
                                                          args.time_budget)
        timing['seconds'] = round(time.time() - timing_started, 1)
    results = {
        'device': device,
        'date': now(),
        'mode': 'quick' if args.quick else 'full',
        'warpfix': manifest['warpfix'],
        'nvcc': manifest['nvcc'],
        'seconds': round(time.time() - started, 1),
        'cases': cases,
        'timing': timing,
    }
    return write_results(results, out_dir)


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='seconds')


def write_results(results, out_dir):
    """Writes results.json and RESULTS.md into out_dir, prints what failed;
    returns the exit status: 1 if a case failed (never for a time ratio)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / 'results.json').write_text(json.dumps(results, indent=2) + '\n')
    (out_dir / 'RESULTS.md').write_text(results_markdown(results))
    cases = results.get('cases')
    failed = [c for c in cases or [] if not c['ok']]
    if cases is not None:
        log(f"\n{len(cases) - len(failed)}/{len(cases)} cases passed")
    for c in failed:
        log(f"FAIL {c['name']}:\n  " + '\n  '.join(c['failures']))
    timing = results.get('timing')
    timing_failed = [t for t in (timing or {}).get('cases', []) if t['failure']]
    if timing:
        verdicts = collections.Counter(t['verdict'] for t in timing['cases'])
        log(f"timing: {', '.join(f'{n} {v}' for v, n in sorted(verdicts.items()))}")
    for t in timing_failed:
        log(f"TIMING FAILED {t['name']}: {t['failure']}")
    if timing and timing.get('not_timed'):
        log(f"not timed (time budget): {' '.join(timing['not_timed'])}")
    log(f"run time {results['seconds']} s; wrote {out_dir / 'results.json'} and "
        f"{out_dir / 'RESULTS.md'}")
    return 1 if failed or timing_failed else 0


def cell(value):
    return '?' if value is None else str(value)


def racecheck_after_cell(case):
    unfixed = case.get('races_reported_unfixed')
    if case['racecheck_after'] and unfixed:
        return f"{case['racecheck_after']} ({unfixed} races reported unfixed)"
    return cell(case['racecheck_after'])


def table_row(c):
    s, fix = c.get('summary') or {}, c.get('fix') or {}
    fixed = f"{fix.get('fixed', '?')}/{s.get('findings', '?')}"
    if c.get('rewritten_uses_emulation'):
        fixed += ' (emulated rest)'
    if 'outputs_equal' not in c:
        return f"| {c['name']} | {fixed} | - | - | - | - | - | - | FAIL |"
    return (f"| {c['name']} | {fixed} | {c['configurations']} ({c['program_runs']}) | "
            f"{'yes' if c['outputs_equal'] else 'NO'} | {cell(c['racecheck_before'])} | "
            f"{racecheck_after_cell(c)} | {cell(c['synccheck_after'])} | "
            f"{cell(c['memcheck_after'])} | {'pass' if c['ok'] else 'FAIL'} |")


def results_markdown(results):
    d = results['device']
    lines = [
        '# warpfix runtime test results',
        '',
        f"Device: {d['name']}, driver {d['driver']}. Date: {results['date']}. "
        f"Mode: {results['mode']}. {results['warpfix']}, nvcc {results['nvcc']}. "
        f"Run time: {results['seconds']} s.",
    ]
    if results.get('cases') is not None:
        lines += checks_markdown(results['cases'])
    else:
        lines += ['', 'Checks and sanitizers: not run in this run (`--timing-only`).']
    if results.get('timing'):
        lines += [''] + timing_markdown(results['timing'], level='##')
    else:
        lines += ['', 'Timing: not run in this run (`--no-timing`).']
    notes = HERE / TIMING_NOTES
    if results.get('timing') and notes.exists():
        lines += ['', notes.read_text().rstrip()]
    return '\n'.join(lines) + '\n'


def checks_markdown(cases):
    lines = [
        '',
        'Each case runs the original (under legacy_emulation.cuh, the legacy semantics) and the '
        'warpfix rewrite over its launch shapes and seeds; every launch is compared bit for bit '
        'with the CPU reference. Sanitizer columns count findings (racecheck: hazards, errors '
        'and warnings) on one small shape; "after" is the rewritten program. Any finding there '
        'fails the case, except racecheck hazards where warpfix itself reports races it could '
        'not fix (listed below). Timings are in their own section below.',
        '',
        '| case | warpfix: fixed/findings | configs (runs) | outputs equal | racecheck before | '
        'racecheck after | synccheck | memcheck | verdict |',
        '|---|---|---|---|---|---|---|---|---|',
    ]
    lines += [table_row(c) for c in cases]
    unfixed = [c for c in cases if (c.get('fix') or {}).get('remaining')]
    if unfixed:
        lines += ['', '## Not fixed completely', '',
                  'Findings warpfix left in the rewritten programs, with its reasons. A program '
                  'that still has legacy calls ("emulated rest" above) was built with '
                  'legacy_emulation.cuh, so those calls keep the legacy semantics. Lines are '
                  'those of rewritten.cu.', '']
        for c in unfixed:
            for f in c['fix']['remaining']:
                lines.append(f"- {c['name']}, line {f['line']} ({f['check']}, {f['call']}): "
                             f"{f['reason']}")
    prepared_with_problems = [c for c in cases if c.get('problems')]
    if prepared_with_problems:
        lines += ['', '## Problems found by prepare', '']
        for c in prepared_with_problems:
            lines += [f"- {c['name']}: " + p.splitlines()[0] for p in c['problems']]
    noted = [c for c in cases if c.get('notes')]
    if noted:
        lines += ['', '## Originals that are not lockstep', '',
                  'In these cases the legacy kernels diverge inside loops, where '
                  'legacy_emulation.cuh (`__activemask()`) need not see every lane of a source '
                  'iteration, so the emulated original is no lockstep oracle; the rewritten '
                  'program is judged against the CPU reference of the lockstep semantics, and '
                  'by the sanitizers (`@original not-lockstep`).', '']
        for c in noted:
            lines += [f"- {c['name']}: " + '; '.join(c['notes'])]
    failed = [c for c in cases if not c['ok']]
    if failed:
        lines += ['', '## Failures', '']
        for c in failed:
            lines += [f"- {c['name']}: " + '; '.join(c['failures'])]
    return lines


def command_report(args):
    results = json.loads(Path(args.results).read_text())
    if args.timing:
        results['timing'] = merged_timing(results, args.timing)
    return write_results(results, Path(args.out).resolve())


def merged_timing(results, paths):
    """The timing sections of the results.json files at `paths`, as one: the
    first one's figures about the run, every file's cases (a case timed twice
    is an error)."""
    merged, seen = None, {}
    for path in paths:
        timed = json.loads(Path(path).read_text())
        timing = timed.get('timing')
        if not timing:
            raise SystemExit(f'{path} has no timing section')
        if timed.get('warpfix') != results.get('warpfix'):
            log(f"note: the timing in {path} comes from {timed.get('warpfix')}, the checks "
                f"from {results.get('warpfix')}")
        for t in timing['cases']:
            if t['name'] in seen:
                raise SystemExit(f"{t['name']} is timed in both {seen[t['name']]} and {path}")
            seen[t['name']] = path
        if merged is None:
            merged = dict(timing, cases=list(timing['cases']), sources=[str(path)])
            continue
        if timing['device'] != merged['device'] or timing['mode'] != merged['mode']:
            raise SystemExit(f'{path} was timed on another device or in another mode than '
                             f"{paths[0]}: {timing['device']} {timing['mode']}")
        merged['cases'] += timing['cases']
        merged['seconds'] = round(merged['seconds'] + timing['seconds'], 1)
        merged['sources'].append(str(path))
    merged['cases'].sort(key=lambda t: t['name'])
    merged['not_timed'] = sorted(set().union(*(
        json.loads(Path(p).read_text())['timing'].get('not_timed', []) for p in paths))
        - set(seen))
    return merged


def command_timing_table(args):
    path = Path(args.results).resolve()
    print(f'==== GPU timings of the runtime tests (issue 18) ====')
    try:
        results = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        print(f'none: cannot read {path}: {e}')
        return 0
    timing = results.get('timing')
    if not timing:
        print(f'none: {path} has no timing section (a run before issue 18, or --no-timing)')
        return 0
    d = timing['device']
    where = ('measured on this machine by this run' if args.measured_here else
             'NOT measured on this machine: read from the last GPU run committed there')
    print(f"From {path}: {d['name']} (driver {d['driver']}), {timing['date']}, "
          f"{results.get('warpfix')}, {timing['mode']} mode, {timing['seconds']} s; {where}.")
    print('\n'.join(timing_markdown(timing, level='##')[3:]))
    print()
    print('GPU timings as JSON:')
    summary = timing_summary_json(results, path)
    cases = summary.pop('cases')
    head = json.dumps(summary, indent=1)
    print(head[:-2] + ',\n "cases": [\n'
          + ',\n'.join('  ' + json.dumps(c) for c in cases) + '\n ]\n}')
    return 0


# ---------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(
        description=__doc__,
        epilog='prepare needs nvcc and warpfix (no GPU); run needs the prepared folder, a GPU '
               'and compute-sanitizer. See runtime-tests/README.md.',
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest='command', required=True)

    p = sub.add_parser('prepare', help='analyse, rewrite and build every case (no GPU)')
    p.add_argument('--warpfix', default=str(HERE.parent / 'build' / 'bin' / 'warpfix'),
                   help='the warpfix binary (default: %(default)s)')
    p.add_argument('--nvcc', default=shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc',
                   help='nvcc (default: %(default)s)')
    p.add_argument('--out', default=str(HERE / 'out'),
                   help='output folder, emptied first (default: %(default)s)')
    p.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 2,
                   help='cases prepared at once (default: %(default)s)')
    p.add_argument('--update-expectations', action='store_true',
                   help="rewrite each case's expect.json from warpfix's current findings")
    p.add_argument('--case', action='append', metavar='GLOB',
                   help='only the cases matching GLOB (repeatable)')
    p.set_defaults(func=command_prepare)

    r = sub.add_parser('run', help='run the prepared folder on a GPU')
    r.add_argument('folder', nargs='?',
                   help='the folder prepare wrote (default: the folder holding this script)')
    r.add_argument('--quick', action='store_true',
                   help=f"{QUICK['shapes']} shapes, seed 1, {QUICK['launches']} launches per run, "
                        f"{QUICK['time_rounds']} timed launches per program (full: all shapes, "
                        f"seeds {', '.join(map(str, FULL['seeds']))}, {FULL['launches']} "
                        f"launches, {FULL['time_rounds']} timed)")
    phase = r.add_mutually_exclusive_group()
    phase.add_argument('--timing-only', action='store_true',
                       help='only the timing phase, not the checks and sanitizers')
    phase.add_argument('--no-timing', action='store_true',
                       help='only the checks and sanitizers, not the timing phase')
    r.add_argument('--time-budget', type=float, metavar='SECONDS',
                   help='start timing no further case after this many seconds of timing; '
                        'the cases left are listed (time them with --case, merge with report)')
    r.add_argument('-j', '--jobs', type=int, default=min(8, os.cpu_count() or 1),
                   help='programs run at once, timing runs excepted (default: %(default)s)')
    r.add_argument('--sanitizer', help='compute-sanitizer (default: PATH, then /usr/local/cuda)')
    r.add_argument('--case', action='append', metavar='GLOB',
                   help='only the cases matching GLOB (repeatable)')
    r.set_defaults(func=command_run)

    m = sub.add_parser('report', help='rewrite RESULTS.md from a results.json, optionally '
                                      "taking the timing from another run's results.json")
    m.add_argument('results', help='results.json of a run')
    m.add_argument('--timing', metavar='RESULTS_JSON', action='append',
                   help='take the timing section from this results.json (a --timing-only '
                        'run); repeatable, for runs that timed different cases')
    m.add_argument('--out', default=str(HERE),
                   help='where results.json and RESULTS.md go (default: %(default)s)')
    m.set_defaults(func=command_report)

    t = sub.add_parser('timing-table', help="print a results.json's timing as a table and "
                                            'as JSON (what scripts/bench.sh shows)')
    t.add_argument('results', nargs='?', default=str(HERE / 'results.json'),
                   help='results.json (default: %(default)s)')
    t.add_argument('--measured-here', action='store_true',
                   help='say that the timing was measured on this machine (bench.sh ran it)')
    t.set_defaults(func=command_timing_table)

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == '__main__':
    sys.exit(main())
