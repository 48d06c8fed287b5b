"""Small helpers shared by every phase of the sweep: reading a field of warpfix's
JSON report under any of its spellings (norm_key, pick, as_int), paths shown
relative to a project (real, rel), and quoting for the saved command lines and
for --header-filter (shlex_quote, ere_escape).
"""
import os
import re


def norm_key(k):
    return re.sub(r"[^a-z0-9]", "", str(k).lower())


def pick(d, *names):
    """The value of the first key of d whose normalised form is in names."""
    if not isinstance(d, dict):
        return None
    want = [norm_key(n) for n in names]
    keys = {norm_key(k): k for k in d}
    for w in want:
        if w in keys:
            return d[keys[w]]
    return None


def as_int(v):
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, list):
        return len(v)
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def real(p):
    try:
        return os.path.realpath(p)
    except (OSError, ValueError):
        return p


def rel(p, root):
    try:
        r = os.path.relpath(real(p), real(root))
    except ValueError:
        return p
    return p if r.startswith("..") else r


def ere_escape(text):
    """text as a literal in the POSIX extended regex that --header-filter takes."""
    return re.sub(r"([.\[\](){}*+?|^$\\])", r"\\\1", text)


def shlex_quote(a):
    return a if re.match(r"^[A-Za-z0-9_@%+=:,./-]+$", a) else "'" + a.replace("'", "'\\''") + "'"
