"""The grep of a project's sources for what warpfix should report: legacy call
sites (__shfl, __shfl_up/down/xor, __ballot, __any, __all followed by '('
outside comments and strings), the #defines and declarations of those names
counted apart, and inline PTX shfl./vote. without .sync, each with the kinds
of preprocessor conditions around it (a toolkit version, __CUDA_ARCH__).
"""
import re

LEGACY_NAMES = ("__shfl", "__shfl_up", "__shfl_down", "__shfl_xor",
                "__ballot", "__any", "__all")
LEGACY_RE = re.compile(r"(?<![A-Za-z0-9_$])(__shfl_up|__shfl_down|__shfl_xor|__shfl|"
                       r"__ballot|__any|__all)\s*\(")
EXPRESSION_KEYWORDS = {"return", "else", "do", "case", "throw", "co_return", "co_yield", "co_await",
                       "and", "or", "not", "xor", "bitand", "bitor", "compl", "not_eq", "and_eq",
                       "or_eq", "xor_eq"}
DEFINE_RE = re.compile(r"^\s*#\s*define\s+(__shfl_up|__shfl_down|__shfl_xor|__shfl|"
                       r"__ballot|__any|__all)\s*\(")
# shfl.<mode>... or vote.<mode>... in PTX text, not followed by .sync
PTX_RE = re.compile(r"(?<![A-Za-z0-9_])(shfl|vote)\.(?!sync\b)([a-z0-9_.]*)")
SOURCE_EXTS = (".cu", ".cuh", ".h", ".hpp", ".hxx", ".hh", ".inl", ".inc", ".cpp",
               ".cc", ".cxx", ".c")


def strip_comments(text, keep_strings):
    """text with comments (and, unless keep_strings, string contents) blanked.

    Newlines are kept, so line numbers do not move."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif c == '"' or (c == "'" and not (i > 0 and (text[i - 1].isalnum()))):
            q = c
            j = i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if keep_strings and q == '"':
                out.append(text[i:j])
            else:
                out.append(q + " " * max(0, j - i - 2) + (q if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


VERSION_MACRO_RE = re.compile(r"__CUDACC_VER|CUDA_VERSION|CUDART_VERSION|__CUDACC_RTC__|THRUST_VERSION|CUB_VERSION")
ARCH_MACRO_RE = re.compile(r"__CUDA_ARCH__|CUB_PTX_ARCH")


def conditional_context(code_lines):
    """For each line (1-based index), the kinds of preprocessor conditions around it:
    'version' (a toolkit or compiler version test) and/or 'arch' (__CUDA_ARCH__).

    Tells apart a legacy call that only an old toolkit or architecture compiles from one in
    code every build sees. Conditions are not evaluated: #if, #elif and #else all count."""
    out = [frozenset()]
    stack = []
    joined = ""
    for raw in code_lines:
        line = joined + raw
        joined = line[:-1] if line.endswith("\\") else ""
        m = re.match(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", line)
        if m and not joined:
            kw, cond = m.group(1), m.group(2)
            kinds = set()
            if VERSION_MACRO_RE.search(cond):
                kinds.add("version")
            if ARCH_MACRO_RE.search(cond):
                kinds.add("arch")
            if kw in ("if", "ifdef", "ifndef"):
                stack.append(kinds)
            elif kw == "elif" and stack:
                stack[-1] = stack[-1] | kinds
            elif kw == "endif" and stack:
                stack.pop()
        cur = set()
        for k in stack:
            cur |= k
        out.append(frozenset(cur))
    return out


def grep_sites(files):
    """Legacy call sites and PTX sites in files: lists of (file, line, text, kinds), kinds the
    preprocessor conditions around the site (conditional_context)."""
    legacy, ptx, defines, declarations = [], [], [], []
    for f in files:
        try:
            with open(f, "rb") as fh:
                raw = fh.read()
        except OSError:
            continue
        if b"\0" in raw[:4096]:
            continue
        text = raw.decode("utf-8", "replace")
        if not any(n in text for n in ("__shfl", "__ballot", "__any", "__all", "shfl.", "vote.")):
            continue
        code = strip_comments(text, keep_strings=False)
        code_lines = code.split("\n")
        context = conditional_context(code_lines)
        for m in LEGACY_RE.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            src = code_lines[line - 1]
            if DEFINE_RE.match(src) and DEFINE_RE.match(src).group(1) == m.group(1):
                defines.append((f, line, m.group(1), context[line]))
                continue
            # A type or specifier before the name declares it (a project's own
            # `uint4 __shfl(uint4, int)`): not a call site, as warpfix reads it.
            before = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*$", code[max(0, m.start() - 200):m.start()])
            if before and code[m.start() - 1:m.start()].isspace() and \
                    before.group(1) not in EXPRESSION_KEYWORDS:
                declarations.append((f, line, m.group(1), context[line]))
                continue
            legacy.append((f, line, m.group(1), context[line]))
        with_strings = strip_comments(text, keep_strings=True)
        for lit in re.finditer(r'"(?:[^"\\\n]|\\.)*"', with_strings):
            for m in PTX_RE.finditer(lit.group(0)):
                line = with_strings.count("\n", 0, lit.start() + m.start()) + 1
                ptx.append((f, line, m.group(0), context[line]))
    return legacy, ptx, defines, declarations
