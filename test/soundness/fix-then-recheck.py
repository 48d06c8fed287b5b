"""Every automatic fix, checked by warpfix itself (issue 13).

For each input: analyse it, apply --fix, analyse the result again. A fix is
wrong, whatever the lit test of its check says, if the second run finds
something the first did not leave behind:
  - a full mask or __activemask() mask where only some lanes arrive
    (warp-full-mask-divergent, warp-activemask-mask): the fix wrote a mask
    that is not the set of lanes reaching the call;
  - any other new finding (a race the rewrite created, a legacy call it
    introduced).
Findings are compared by (check, message), since fixes move lines.

usage: fix-then-recheck.py WARPFIX SCRATCH FILE_OR_DIR...
"""
import collections
import json
import pathlib
import shutil
import subprocess
import sys


class Unparsed(Exception):
    pass


def findings(warpfix, path, include, fix=False):
    command = [warpfix, '--no-cache', '--format=json', str(path), '--',
               f'-I{include.resolve()}']
    if fix:
        command.insert(1, '--fix')
    run = subprocess.run(command, capture_output=True, text=True,
                         cwd=path.parent)
    if run.returncode == 2 and not fix and json.loads(run.stdout)['failedFiles']:
        raise Unparsed()
    if run.returncode not in (0, 1):
        raise RuntimeError(f'{" ".join(command)} exited {run.returncode}:\n'
                           f'{run.stderr[-2000:]}')
    report = json.loads(run.stdout)
    return report['findings']


def key(finding):
    return (finding['check'], finding['message'])


def main(argv):
    warpfix, scratch, inputs = argv[1], pathlib.Path(argv[2]), argv[3:]
    files = []
    for name in inputs:
        path = pathlib.Path(name)
        files += sorted(f for f in path.rglob('*.cu')
                        if 'Inputs' not in f.parts) if path.is_dir() else [path]
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    problems, fixed_total, unparsed = [], 0, 0
    for index, source in enumerate(files):
        work = scratch / str(index)
        work.mkdir()
        copy = work / source.name
        shutil.copy(source, copy)
        try:
            before = findings(warpfix, copy, source.parent)
        except Unparsed:
            # Inputs that fail to parse on purpose (the tool's own tests).
            unparsed += 1
            continue
        if not any(f['fixable'] for f in before):
            continue
        fixed = findings(warpfix, copy, source.parent, fix=True)
        fixed_total += sum(1 for f in fixed if f['fixed'])
        left = collections.Counter(key(f) for f in fixed if not f['fixed'])
        after = collections.Counter(
            key(f) for f in findings(warpfix, copy, source.parent))
        for (check, message), count in (after - left).items():
            problems.append(f'{source}: after --fix, {count} new '
                            f'{check} finding(s): {message}')
    for problem in problems:
        print(problem)
    print(f'{len(files)} files ({unparsed} that do not parse skipped), '
          f'{fixed_total} fixes applied, {len(problems)} problems')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
