"""Which files need a full parse: those where the TU or a non-system header it
includes (quoted includes and -I directories) holds a token the checks need
(TRIGGERS, or shfl/vote in a file with asm).
"""
import os
import re

# What the checks need to see in a TU (or a non-system header it includes)
# before a full parse can find anything. `_sync` is matched anywhere in an
# identifier, so it also covers __syncwarp and __syncthreads.
TRIGGERS = [
    ("legacy name", re.compile(
        r"\b(?:__shfl|__shfl_up|__shfl_down|__shfl_xor|__ballot|__any|__all)\b")),
    ("__activemask", re.compile(r"\b__activemask\b")),
    ("_sync", re.compile(r"_sync")),
    ("__shared__", re.compile(r"\b__shared__\b")),
]
ASM = re.compile(r"\b(?:asm|__asm__|__asm)\b")
ASM_WARP = re.compile(r"\b(?:shfl|vote)\b")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def user_include_dirs(entry_args):
    dirs = []
    it = iter(range(len(entry_args)))
    for i in it:
        a = entry_args[i]
        if a == "-I" and i + 1 < len(entry_args):
            dirs.append(entry_args[i + 1])
            next(it, None)
        elif a.startswith("-I"):
            dirs.append(a[2:])
    return dirs


def triggers_in(path, dirs, seen):
    """The trigger names found in path and the user headers it includes."""
    if path in seen:
        return set()
    seen.add(path)
    with open(path, errors="replace") as f:
        text = f.read()
    found = {name for name, rx in TRIGGERS if rx.search(text)}
    if ASM.search(text) and ASM_WARP.search(text):
        found.add("shfl/vote in asm")
    for kind, name in INCLUDE.findall(text):
        candidates = ([os.path.dirname(path)] if kind == '"' else []) + dirs
        for d in candidates:
            p = os.path.normpath(os.path.join(d, name))
            if os.path.isfile(p):
                found |= triggers_in(p, dirs, seen)
                break
    return found
