"""The prepare phase (nvcc and warpfix, no GPU; runs in CI): empties the
output folder and copies into it what the GPU machine needs (harness.h,
legacy_emulation.cuh, run.py and this package); for each case analyses the
original, checks the findings against expect.json, rewrites a copy with
warpfix --fix and builds both programs; writes manifest.json."""

import concurrent.futures
import datetime
import json
import os
import shutil
import time
from pathlib import Path

from .analysis import analyse, fix_in_place
from .cases import CASE_METADATA, read_case, select_cases
from .common import (HERE, MANIFEST, TIMING_NOTES, PrepareError, indent, log, plural,
                     run_command)
from .emulation import emulate_legacy_ptx, needs_emulation
from .expectations import compare_expectations, expectation_document
from .nvcc import CHECK_ARCH, RUN_ARCH, build_case, nvcc_version

OUT_MARKER = '.runtime-tests-out'  # marks a folder that prepare may empty
SUPPORT_FILES = ('harness.h', 'legacy_emulation.cuh')
# This package, copied into the output folder beside run.py: out/run.py runs
# from there on the GPU machine, which has nothing else but python3.
PACKAGE = Path(__file__).resolve().parent


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
    # out/run.py, run on the GPU machine, imports this package from its own folder.
    shutil.copy2(HERE / 'run.py', out_dir / 'run.py')
    shutil.copytree(PACKAGE, out_dir / PACKAGE.name,
                    ignore=shutil.ignore_patterns('__pycache__'))


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
                                   'time_grow', 'original_not_lockstep', 'original_racy')}
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
