#!/usr/bin/env python3
"""Tests of run.py's timing phase (runtime/timing.py) without a GPU: fake
case programs that speak harness.h's serve protocol stand in for the real
ones, with times that grow with the grid as a kernel's would. Run:
python3 runtime-tests/test_timing.py"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402
from runtime import cases, common, execute, timing  # noqa: E402

# A case program: `<blockSize> <numBlocks> <n> <seed> <launches> [serve]`.
# Its kernel takes 4 us of launch cost plus PER_THREAD ms a thread, times
# SLOWER[case] in the rewritten program. A few cases misbehave on purpose.
FAKE_PROGRAM = r'''#!/usr/bin/env python3
import os, random, sys, time
bs, nb, n, seed, launches = map(int, sys.argv[1:6])
serve = sys.argv[6:] == ['serve']
case, version = os.path.basename(sys.argv[0]).rsplit('.', 1)
print(f'SHAPE blockSize={bs} numBlocks={nb} n={n} seed={seed} launches={launches}', flush=True)
slower = {'slow': 1.08, 'syncslow': 1.05}.get(case, 1.0) if version == 'rewritten' else 1.0
def kernel_ms():
    return (0.004 + bs * nb * 1.4e-9) * slower * random.gauss(1, 0.002)
if not serve:
    times = sorted(kernel_ms() for _ in range(launches))
    print(f'RESULT ok launches={launches}')
    print(f'TIME_MS {times[len(times) // 2]:.6f}')
    sys.exit(0)
if case == 'oom' and version == 'rewritten':
    print('RESULT error out of memory')
    sys.exit(2)
print('READY', flush=True)
launched = 0
for line in sys.stdin:
    if line.startswith('end'):
        break
    if case == 'hang' and version == 'rewritten':
        time.sleep(1000)
    launched += 1
    print(f'SAMPLE {kernel_ms():.6f}', flush=True)
if case == 'wrong' and version == 'rewritten':
    print('RESULT mismatch output=sums launch=3 index=0 got=1 want=2 differing=1/10')
    sys.exit(1)
print(f'RESULT ok launches={launches + launched}')
'''

WHOLE = [256, 4096, 1 << 20]
CASES = {  # name: (time shape, @time options, inserts a __syncwarp)
    'fast': (WHOLE, [], False),
    'slow': (WHOLE, [], False),
    'syncslow': (WHOLE, [], True),
    'fixed': ([48, 36, 1696], ['grow=none'], False),
    'perblock': ([256, 8192, 200], ['grow=blocks'], False),
    'oom': (WHOLE, [], False),
    'wrong': (WHOLE, ['max-n=268435456'], False),
    'hang': (WHOLE, [], False),
    'gone': (WHOLE, [], False),  # its rewritten binary is missing
}


def make_out_dir(root):
    (root / 'bin').mkdir()
    program = root / 'fake-case'
    program.write_text(FAKE_PROGRAM)
    program.chmod(0o755)
    records = []
    for name, (shape, options, syncwarp) in CASES.items():
        for version in ('original', 'rewritten'):
            if (name, version) != ('gone', 'rewritten'):
                os.symlink(program, root / 'bin' / f'{name}.{version}')
        case = root / 'cases' / name
        case.mkdir(parents=True)
        (case / 'original.cu').write_text('v = __shfl_down(v, 1);\n')
        (case / 'rewritten.cu').write_text('v = __shfl_down_sync(0xffffffff, v, 1);\n'
                                           + ('__syncwarp();\n' if syncwarp else ''))
        records.append({'name': name, 'time': shape, 'time_grow': cases.parse_time_grow(options),
                        'binaries': {v: f'bin/{name}.{v}' for v in ('original', 'rewritten')},
                        'findings': [], 'fix': {'remaining': []}})
    (root / common.MANIFEST).write_text(json.dumps({'warpfix': 'fake', 'nvcc': '0',
                                                    'cases': records}))


class Units(unittest.TestCase):
    def test_time_options(self):
        self.assertEqual(cases.parse_time_grow([]), {'dims': ['blocks', 'n'],
                                                     'max_n': cases.TIME_MAX_ELEMENTS})
        self.assertEqual(cases.parse_time_grow(['grow=blocks'])['dims'], ['blocks'])
        self.assertEqual(cases.parse_time_grow(['max-n=100'])['max_n'], 100)
        for bad in (['grow=n'], ['max-n=x'], ['grow=none', 'max-n=5'], ['speed=1']):
            with self.assertRaises(common.PrepareError):
                cases.parse_time_grow(bad)

    def test_growth_stays_in_int_range(self):
        record = {'time': WHOLE, 'time_grow': cases.parse_time_grow([])}
        top = timing.max_factor(record)
        block_size, num_blocks, n = timing.grown_shape(record, top)
        self.assertEqual((block_size, num_blocks, n), (256, 4096 * 1024, 1 << 30))
        capped = dict(record, time_grow=cases.parse_time_grow(['max-n=268435456']))
        self.assertEqual(timing.max_factor(capped), 256)
        per_block = {'time': [256, 8192, 200],
                     'time_grow': cases.parse_time_grow(['grow=blocks'])}
        self.assertEqual(timing.grown_shape(per_block, 3), (256, 3 * 8192, 200))
        fixed = {'time': [48, 36, 1696], 'time_grow': cases.parse_time_grow(['grow=none'])}
        self.assertEqual(timing.max_factor(fixed), 1)

    def test_verdicts(self):
        def verdict(original, rewritten, again, target=1.03):
            return timing.ratio_verdict({'original': original, 'rewritten': rewritten,
                                         'original_again': again}, target)

        ratio, noise, band, v = verdict(2.0, 2.04, 1.98)
        self.assertAlmostEqual(ratio, 1.02)
        self.assertEqual(band, [0.99, 1 / 0.99])
        self.assertEqual(v, timing.MEETS)
        self.assertEqual(verdict(2.0, 2.08, 2.2)[3], timing.WITHIN_NOISE)  # band up to 1.1
        self.assertEqual(verdict(2.0, 2.08, 1.8)[3], timing.WITHIN_NOISE)  # band symmetric
        self.assertEqual(verdict(2.0, 2.08, 2.02)[3], timing.SLOWDOWN)
        self.assertEqual(verdict(2.0, 2.16, 2.02, target=1.10)[3], timing.MEETS)
        self.assertEqual(verdict(0.5, 0.9, 0.5)[3], timing.TOO_SHORT)


class EndToEnd(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.root = Path(tempfile.mkdtemp(prefix='warpfix-timing-test-'))
        make_out_dir(cls.root)
        saved = timing.TIME_SESSION_TIMEOUT_S
        timing.TIME_SESSION_TIMEOUT_S = 5  # for 'hang'
        try:
            with contextlib.redirect_stdout(io.StringIO()) as cls.log:
                cls.status = run.main(['run', str(cls.root), '--timing-only', '--quick',
                                       '--sanitizer', '/bin/true'])
        finally:
            timing.TIME_SESSION_TIMEOUT_S = saved
        cls.results = json.loads((cls.root / 'results.json').read_text())
        cls.timing = {t['name']: t for t in cls.results['timing']['cases']}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.root)

    def test_reaches_the_target_time_and_interleaves(self):
        t = self.timing['fast']
        self.assertIsNone(t['failure'])
        self.assertGreaterEqual(t['median_ms']['original'], timing.TIME_TARGET_MS)
        self.assertLess(t['median_ms']['original'], 2 * timing.TIME_AIM_MS)
        for version in timing.TIMED:
            self.assertEqual(len(t['samples_ms'][version]), execute.QUICK['time_rounds'])
        self.assertEqual(t['verdict'], timing.MEETS)
        self.assertEqual(t['class'], timing.SHUFFLE_VOTE)

    def test_slowdowns(self):
        self.assertEqual(self.timing['slow']['verdict'], timing.SLOWDOWN)
        self.assertEqual(self.timing['syncslow']['class'], timing.SYNCWARP)
        self.assertEqual(self.timing['syncslow']['verdict'], timing.MEETS)  # 1.05 <= 1.10

    def test_sizes(self):
        self.assertEqual(self.timing['fixed']['verdict'], timing.TOO_SHORT)
        self.assertEqual(self.timing['fixed']['shape'], [48, 36, 1696])
        self.assertEqual(self.timing['perblock']['shape'][2], 200)
        self.assertEqual(self.timing['perblock']['verdict'], timing.MEETS)

    def test_failures_are_reported_and_fail_the_run(self):
        self.assertEqual(self.status, 1)
        self.assertIn('rewritten did not start', self.timing['oom']['failure'])
        self.assertIn('mismatch', self.timing['wrong']['failure'])
        self.assertIn('killed after', self.timing['hang']['failure'])
        # A program that cannot be started fails its case, not the whole run.
        self.assertIn('rewritten could not start', self.timing['gone']['failure'])
        for name in ('oom', 'wrong', 'hang', 'gone'):
            self.assertEqual(self.timing[name]['verdict'], timing.TIMING_FAILED)

    def test_results_md_and_timing_table(self):
        text = (self.root / 'RESULTS.md').read_text()
        self.assertIn('| slow | shuffle/vote rewrite |', text)
        self.assertIn('Slowdowns to explain', text)
        with contextlib.redirect_stdout(io.StringIO()) as out:
            run.main(['timing-table', str(self.root / 'results.json')])
        printed = out.getvalue()
        self.assertIn('NOT measured on this machine', printed)
        summary = json.loads(printed.split('GPU timings as JSON:\n', 1)[1])
        self.assertEqual([c['name'] for c in summary['cases']], list(CASES))
        self.assertNotIn('samples_ms', summary['cases'][0])


class BudgetAndMerge(unittest.TestCase):
    def test_budget_leaves_cases_that_report_merges(self):
        root = Path(tempfile.mkdtemp(prefix='warpfix-timing-test-'))
        try:
            make_out_dir(root)
            first, second = root / 'first.json', root / 'second.json'
            with contextlib.redirect_stdout(io.StringIO()):
                run.main(['run', str(root), '--timing-only', '--quick', '--sanitizer',
                          '/bin/true', '--time-budget', '0', '--case', 'fast', '--case', 'slow'])
                shutil.copy(root / 'results.json', first)
                run.main(['run', str(root), '--timing-only', '--quick', '--sanitizer',
                          '/bin/true', '--case', 'slow'])
                shutil.copy(root / 'results.json', second)
                checks = root / 'checks.json'
                checks.write_text(json.dumps(dict(json.loads(first.read_text()), timing=None)))
                status = run.main(['report', str(checks), '--timing', str(first), '--timing',
                                   str(second), '--out', str(root / 'merged')])
            self.assertEqual(json.loads(first.read_text())['timing']['not_timed'], ['slow'])
            merged = json.loads((root / 'merged' / 'results.json').read_text())['timing']
            self.assertEqual(status, 0)
            self.assertEqual([t['name'] for t in merged['cases']], ['fast', 'slow'])
            self.assertEqual(merged['not_timed'], [])
            with self.assertRaises(SystemExit):  # a case timed twice
                run.main(['report', str(checks), '--timing', str(second), '--timing',
                          str(second), '--out', str(root / 'twice')])
        finally:
            shutil.rmtree(root)


if __name__ == '__main__':
    unittest.main()
