"""Cases (used by the prepare phase, and by `run` to select them): a case's
folder and the directives in its first comment (@shapes, @sanitize, @time
and its growth options, @original), parsed into the record that prepare
writes to the manifest; and the --case GLOB selection."""

import collections
import fnmatch
import re

from .common import PrepareError

# The files of a case folder that are not part of its program.
CASE_METADATA = ('expect.json', '.warpfix.yaml')


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
            # need not compute the lockstep reference. `@original racy`:
            # its warps race on shared memory, the bug the fix removes, so
            # the original need not either. Its runs are recorded and do not
            # decide the case.
            if words not in (['not-lockstep'], ['racy']):
                raise PrepareError(f'{source}: @original takes not-lockstep or racy')
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
        'original_not_lockstep': directives.get('original') == ['not-lockstep'],
        'original_racy': directives.get('original') == ['racy'],
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
