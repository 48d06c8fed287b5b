"""The report (GPU machine after `run`, or here): results.json and RESULTS.md
from a run's results, what failed printed and the exit status; and `report`,
which merges the timing of --timing-only runs into the results of a
--no-timing run."""

import collections
import json
from pathlib import Path

from .common import HERE, TIMING_NOTES, cell, log
from .timing import timing_markdown


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
        lines += ['', '## Originals that are not oracles', '',
                  'In `@original not-lockstep` cases the legacy kernels diverge inside loops, '
                  'where legacy_emulation.cuh (`__activemask()`) need not see every lane of a '
                  'source iteration, so the emulated original is no lockstep oracle. In '
                  '`@original racy` cases the warps of a block race on shared memory, the bug '
                  'the fix removes. Either way the rewritten program is judged against the CPU '
                  'reference and by the sanitizers.', '']
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
