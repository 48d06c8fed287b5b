"""The legacy semantics of the original (prepare phase): which findings nvcc
13 builds only with legacy_emulation.cuh, and legacy PTX, which no header can
give back, rewritten in the source to the .sync form over activemask.b32
(runtime-tests/README.md, "Legacy PTX")."""

import re

from .common import PrepareError


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
