"""The code base: the kind of each translation unit planned so that any prefix
has the same mix (shares of heavy, legacy, host and modern TUs), the shared
headers and every TU written under the root from one seeded random
generator, and the clang-style compile_commands.json entries for them.
"""
import os
import random

from .files import write_text
from .headers import HEADERS
from .heavy import HEAVY
from .host import HOST
from .legacy import legacy_tu
from .modern import MODERN

KINDS = ("heavy", "legacy", "host", "modern")
PREFIX = {"heavy": "lib", "legacy": "leg", "host": "host", "modern": "dev"}
SHARES = {"heavy": 0.20, "legacy": 0.35, "host": 0.25, "modern": 0.20}


def _plan(count):
    """The kind of each TU: stratified, so any prefix has the same mix."""
    plan = []
    have = {k: 0 for k in KINDS}
    for i in range(count):
        # The kind furthest behind its share after i+1 TUs.
        kind = max(KINDS, key=lambda k: SHARES[k] * (i + 1) - have[k])
        have[kind] += 1
        plan.append(kind)
    return plan


def generate(root, count=120, seed=8):
    """Writes the code base under root; returns a list of (path, kind)."""
    rng = random.Random(seed)
    os.makedirs(os.path.join(root, "include"), exist_ok=True)
    for rel, text in HEADERS.items():
        write_text(os.path.join(root, rel), text)
    tus = []
    index = {k: 0 for k in KINDS}
    for i, kind in enumerate(_plan(count)):
        k = index[kind]
        index[kind] += 1
        name = PREFIX[kind] + f"{i:03d}"
        if kind == "heavy":
            text = HEAVY[k % len(HEAVY)](rng, name)
        elif kind == "legacy":
            text = legacy_tu(rng, name)
        elif kind == "host":
            text = HOST[k % len(HOST)](rng, name)
        else:
            text = MODERN[k % len(MODERN)](rng, name)
        sub = {"heavy": "src/libs", "legacy": "src/legacy",
               "host": "src/host", "modern": "src/kernels"}[kind]
        path = os.path.join(root, sub, f"{name}.cu")
        write_text(path, text)
        tus.append((path, kind))
    return tus


def compile_commands(root, tus):
    """Clang-style entries: the same flags for every TU, as a build would."""
    entries = []
    for path, _ in tus:
        rel = os.path.relpath(path, root)
        entries.append({
            "directory": root,
            "file": path,
            "arguments": ["clang++", "-x", "cuda", "--cuda-gpu-arch=sm_70",
                          "-std=c++17", "-O2", "-DNDEBUG",
                          "-DBENCH_BLOCK=256", "-I" + os.path.join(root, "include"),
                          "-c", path, "-o",
                          os.path.join(root, "obj", rel + ".o")],
        })
    return entries
