"""Checks that every option, and everything else that changes a result,
changes the result cache's key, and that nothing else does.

Usage: cache-key.py WARPFIX WORKDIR

Each variant is one change from a baseline run over a file with findings and
a file that the prefilter skips, and differs from every other variant. A changed key shows as new cache entries;
an unchanged one adds none. Every option that `warpfix --help-hidden` lists
must be classified below, so that a new option cannot be added without
deciding whether it changes results.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

warpfix, work = sys.argv[1], os.path.abspath(sys.argv[2])
shutil.rmtree(work, ignore_errors=True)
src = os.path.join(work, "src")
os.makedirs(src)
legacy = os.path.join(src, "legacy.cu")
plain = os.path.join(src, "plain.cu")
with open(legacy, "w") as f:
    f.write("__global__ void sum(const int *in, int *out) {\n"
            "  int v = in[threadIdx.x];\n"
            "  v += __shfl_down(v, 16);\n"
            "  out[threadIdx.x] = v;\n"
            "}\n")
with open(plain, "w") as f:
    f.write("__global__ void set(int *out) { out[threadIdx.x] = 1; }\n")
cache = os.path.join(work, "cache")
files = [legacy, plain]


def write(name, text):
    path = os.path.join(work, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def toolkit_alias():
    # The same toolkit under another name: another --cuda-path, same parse.
    root = os.path.realpath("/usr/local/cuda")
    alias = os.path.join(work, "cuda-alias")
    os.symlink(root, alias)
    return alias


def rebuilt_warpfix():
    # The same program with one byte more: what a rebuild with a changed
    # check looks like to the cache.
    prefix = os.path.join(work, "rebuilt")
    build = os.path.dirname(os.path.dirname(warpfix))
    os.makedirs(os.path.join(prefix, "bin"))
    shutil.copytree(os.path.join(build, "share"), os.path.join(prefix, "share"))
    copy = os.path.join(prefix, "bin", "warpfix")
    shutil.copy2(warpfix, copy)
    run(warpfix=copy)  # the compat headers' path is in the key too
    with open(copy, "ab") as f:
        f.write(b"\0")
    return copy


def database():
    entry = ('{"directory": "%s", "file": "%s", "arguments": '
             '["clang++", "-DFROM_DATABASE=1", "-c", "%s"]}' % (src, legacy, legacy))
    write("db/compile_commands.json", "[%s]" % entry)
    return os.path.join(work, "db")


# Runs that must see a new key: (name, how to build the run).
CHANGES_KEY = {
    "checks": lambda: {"args": ["--checks=-*,warp-legacy-intrinsic"]},
    "cuda-gpu-arch": lambda: {"args": ["--cuda-gpu-arch=sm_80"]},
    "cuda-path": lambda: {"args": ["--cuda-path=" + toolkit_alias()]},
    "mask-fallback": lambda: {"args": ["--mask-fallback=activemask"]},
    "assume-whole-warps": lambda: {"args": ["--assume-whole-warps=false"]},
    "no-prefilter": lambda: {"args": ["--no-prefilter"]},
    "strict-parse": lambda: {"args": ["--strict-parse"]},
    "p": lambda: {"args": ["-p", database()]},
    "extra-arg": lambda: {"args": ["--extra-arg=-DEXTRA_AFTER=1"]},
    "extra-arg-before": lambda: {"args": ["--extra-arg-before=-DEXTRA_BEFORE=1"]},
    "config-file": lambda: {"args": ["--config-file=" + write(
        "config/spelling.yaml", "CheckOptions:\n  FullMaskSpelling: MY_MASK\n")]},
}
# What changes a result without being an option.
OTHER_CHANGES = {
    "compiler args after --": lambda: {"after": ["-DEXTRA=1"]},
    ".warpfix.yaml MaskNamePrefix": lambda: {"config": "CheckOptions:\n  MaskNamePrefix: lanes_\n"},
    ".warpfix.yaml ExtraArgs": lambda: {"config": "ExtraArgs: ['-DFROM_CONFIG=1']\n"},
    ".warpfix.yaml ExtraArgsBefore": lambda: {"config": "ExtraArgsBefore: ['-DFROM_CONFIG_BEFORE=1']\n"},
    ".warpfix.yaml Checks": lambda: {"config": "Checks: '-*,warp-legacy-intrinsic,warp-missing-syncwarp'\n"},
    "working directory (the findings' build directory)": lambda: {"cwd": os.path.join(work, "elsewhere")},
    "CPATH": lambda: {"env": {"CPATH": os.path.join(work, "nowhere")}},
    "CPLUS_INCLUDE_PATH": lambda: {"env": {"CPLUS_INCLUDE_PATH": os.path.join(work, "nowhere")}},
    "a rebuilt warpfix": lambda: {"warpfix": rebuilt_warpfix()},
}
# Options that change what is shown or written, not a TU's result.
SAME_KEY = {
    "header-filter": lambda: {"args": ["--header-filter=.*"]},
    "format": lambda: {"args": ["--format=json"]},
    "stats": lambda: {"args": ["--stats=csv"]},
    "diff": lambda: {"args": ["--diff"]},
    "export-fixes": lambda: {"args": ["--export-fixes=" + os.path.join(work, "fixes.yaml")]},
    "j": lambda: {"args": ["-j", "1"]},
    "quiet": lambda: {"args": ["--quiet"]},
    # clang's messages are coloured, and a unit with errors is not cached
    "use-color": lambda: {"args": ["--use-color"]},
    "print-options": lambda: {"args": ["--print-options"]},
    "print-all-options": lambda: {"args": ["--print-all-options"]},
    # the same findings, byte for byte (shared-preamble.test)
    "no-shared-preambles": lambda: {"args": ["--no-shared-preambles"]},
    # the one unit of the run, as the run would analyse it
    "only-unit": lambda: {"args": ["--only-unit=" + legacy]},
}
# Options that end the run before analysis, or that decide where (or
# whether) the cache is, or that write the files (and so change the next key
# through their content).
NOT_A_RESULT = {"help", "h", "help-hidden", "help-list", "help-list-hidden",
                "version", "list-checks", "explain", "dump-config",
                "cache-dir", "no-cache", "fix", "testing-run-before-write",
                "testing-run-before-unit", "testing-report-preambles",
                # parses only, for benchmarks, with no cache
                "parse-only",
                # a crashed TU is never cached
                "testing-crash-in",
                # a results folder is a cache of its own, keyed without the
                # working directory (results-folder.test, launcher-cmake.test)
                "launcher", "results", "merge", "shard", "fail-on-findings"}

listed = subprocess.run([warpfix, "--help-hidden"], capture_output=True,
                        text=True).stdout
options = set(re.findall(r"^  --?([a-z][-a-z0-9]*)", listed, re.M))
unclassified = options - set(CHANGES_KEY) - set(SAME_KEY) - NOT_A_RESULT
if unclassified:
    sys.exit("classify in cache-key.py whether these change a result: " +
             ", ".join(sorted(unclassified)))
stale = (set(CHANGES_KEY) | set(SAME_KEY) | NOT_A_RESULT) - options
if stale:
    sys.exit("cache-key.py names options warpfix no longer has: " +
             ", ".join(sorted(stale)))


def entries():
    return len(glob.glob(os.path.join(cache, "*.yaml")))


def run(args=(), after=(), env=None, cwd=None, config=None, warpfix=warpfix):
    os.makedirs(cwd or work, exist_ok=True)
    config_path = os.path.join(src, ".warpfix.yaml")
    if config is not None:
        with open(config_path, "w") as f:
            f.write(config)
    command = [warpfix, "--cache-dir=" + cache, *args, *files]
    if after:
        command += ["--", *after]
    full_env = dict(os.environ, **(env or {}))
    result = subprocess.run(command, cwd=cwd or work, env=full_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    if config is not None:
        os.remove(config_path)
    if result.returncode not in (0, 1):
        sys.exit("%s failed (%d):\n%s" % (" ".join(command), result.returncode,
                                         result.stderr))


run()
baseline = entries()
if baseline != 2:
    sys.exit("the baseline run cached %d entries, not 2" % baseline)
failures = []
for name, make in list(CHANGES_KEY.items()) + list(OTHER_CHANGES.items()):
    variant = make()
    before = entries()
    run(**variant)
    if entries() == before:
        failures.append("%s: the result was replayed from the cache" % name)
    else:
        print("changes the key: %s" % name)
for name, make in SAME_KEY.items():
    variant = make()
    before = entries()
    run(**variant)
    if entries() != before:
        failures.append("%s: the key changed though the result cannot" % name)
    else:
        print("same key: %s" % name)
if failures:
    sys.exit("\n".join(failures))
