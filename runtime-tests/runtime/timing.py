"""The timing phase (GPU machine): each case's @time shape grown until a launch
of the original runs at least TIME_TARGET_MS, then the original, the
rewritten program and the original again timed interleaved; the verdicts
against issue 18's targets; and the timing as a table (RESULTS.md's section,
`timing-table`, which scripts/bench.sh shows) and as JSON."""

import collections
import json
import math
import re
import statistics
import subprocess
import threading
import time
from pathlib import Path

from .cases import TIME_MAX_ELEMENTS, parse_time_grow
from .common import RACE_CHECKS, format_shape, log, reported_races
from .programs import program_result, run_program


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

MEETS, WITHIN_NOISE, SLOWDOWN = 'meets target', 'within noise', 'SLOWDOWN: to explain'
TOO_SHORT, TIMING_FAILED = 'too short: not counted', 'failed'


def rewrite_class(out_dir, record):
    """SYNCWARP where warpfix inserted a barrier (it fixed a shared-memory
    race, or the rewrite calls __syncwarp more often than the original), else
    SHUFFLE_VOTE."""
    fixed_races = (sum(f['check'] in RACE_CHECKS for f in record.get('findings') or [])
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
            try:
                programs[version] = TimedProgram(
                    out_dir, record['binaries'][BINARY_OF[version]], shape)
            except OSError as e:  # a binary gone or not executable: this case fails
                failure = f'{version} could not start: {e.strerror}'
                break
        for version in TIMED if not failure else ():
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
