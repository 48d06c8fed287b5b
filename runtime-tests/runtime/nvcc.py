"""Building with nvcc (prepare phase): nvcc's version, and the four builds of
a case: the rewritten program (an sm_75 compile check and the sm_90 binary),
the original under legacy_emulation.cuh, and the original as it is, which
must fail exactly when warpfix reports something legacy in it."""

import re
from pathlib import Path

from .common import HERE, first_error, run_command, shell_line


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


def nvcc_version(nvcc):
    code, out, _ = run_command([nvcc, '--version'], cwd=HERE)
    m = re.search(r'release [\d.]+, V([\d.]+)', out)
    if code != 0 or not m:
        raise SystemExit(f'cannot run {nvcc} --version')
    return m[1]


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
