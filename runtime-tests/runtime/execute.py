"""The run phase (GPU machine, given the folder prepare wrote): `run` runs both
programs of every case over its launch shapes and seeds, and the sanitizers
on one small shape, judges each case, then hands over to the timing phase,
and writes results.json and RESULTS.md."""

import collections
import concurrent.futures
import datetime
import json
import os
import shutil
import time
from pathlib import Path

from .cases import select_cases
from .common import HERE, MANIFEST, cell, format_shape, log, reported_races, run_command
from .programs import run_program
from .report import write_results
from .timing import RATIO_TARGETS, TIME_TARGET_MS, run_timing


# What `run` does, and in --quick mode. Each program run checks every launch.
# time_rounds: timed launches of each of the three timed programs (see run_timing).
FULL = dict(shapes=None, seeds=(1, 2, 3), launches=5, time_rounds=100)
QUICK = dict(shapes=2, seeds=(1,), launches=2, time_rounds=50)


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
            elif (version == 'original' and record.get('original_racy')
                    and all(r['status'] == 'mismatch' for r in bad)):
                notes.append(text + ' (@original racy: its warps race on '
                             'shared memory)')
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
