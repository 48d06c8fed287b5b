"""Expectations (prepare phase): a case's expect.json, the findings warpfix
reports on its original file, as written by `prepare --update-expectations`
and compared by every prepare."""

import difflib
import json


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
