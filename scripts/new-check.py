#!/usr/bin/env python3
"""Scaffolds a new warpfix check, as clang-tidy's add_new_check.py does.

usage: scripts/new-check.py NAME

NAME is lowercase kebab-case and starts with warp-, block- or cuda-. The
script writes the files a check is made of, with TODO where a person must
decide, and registers it everywhere a check is listed, so that a build runs
the new check and the only test that fails is its own, until it reports what
its test expects:

  checks/NAME.h, checks/NAME.cpp    the check class, reporting nothing yet
  checks/CheckRegistry.cpp          its #include and its row in the table
  checks/CMakeLists.txt             its source
  docs/checks/NAME.md               its page, built into --explain
  test/NAME/NAME.cu                 a lit test that fails until it reports
  README.md                         its row in the table of checks
  test/tool/*.test, test/soundness  the lists of every check, and of the
                                    test folders that the fix tests cover

It then prints the files it created and changed, and what is left to do by
hand (CONTRIBUTING.md, "Adding a check", says the same at length). Python 3,
standard library only. Nothing is built or run.
"""
import fnmatch
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME_RE = re.compile(r"^(warp|block|cuda)-[a-z0-9]+(-[a-z0-9]+)*$")
# The checks that run when nothing says otherwise (checks/CheckRegistry.h,
# DefaultChecks). The tests that list the enabled checks list only these.
DEFAULT_GLOBS = ("warp-*", "cuda-*")
SUMMARY = "TODO: what it reports, in one line; how it is rewritten"


def path(*parts):
    return os.path.join(ROOT, *parts)


def read(relative):
    with open(path(relative), encoding="utf-8") as f:
        return f.read()


def write(relative, text):
    with open(path(relative), "w", encoding="utf-8") as f:
        f.write(text)


class Scaffold:
    def __init__(self, name):
        self.name = name
        self.klass = "".join(p.capitalize() for p in name.split("-")) + "Check"
        self.guard = "WARPFIX_CHECKS_" + name.upper().replace("-", "_") + "_H"
        self.enabled_by_default = any(
            fnmatch.fnmatchcase(name, g) for g in DEFAULT_GLOBS)
        self.created = []
        self.changed = []
        # Places a check is listed that this script could not update: the
        # file changed shape since it was written. Said at the end.
        self.by_hand = []

    # -- checks -------------------------------------------------------------

    def registered_names(self):
        return re.findall(r'^    \{"([a-z0-9-]+)",', read("checks/CheckRegistry.cpp"),
                          re.M)

    def validate(self):
        problems = []
        if not NAME_RE.match(self.name):
            problems.append(
                "'%s' is not a check name: lowercase kebab-case, starting with "
                "warp-, block- or cuda- (warp-shfl-width, say)" % self.name)
            return problems
        if self.name in self.registered_names():
            problems.append("'%s' is already in checks/CheckRegistry.cpp" % self.name)
        for relative in ("checks/%s.h" % self.name, "checks/%s.cpp" % self.name,
                         "docs/checks/%s.md" % self.name, "test/%s" % self.name):
            if os.path.exists(path(relative)):
                problems.append("%s already exists" % relative)
        for header in os.listdir(path("checks")):
            if header.endswith(".h") and re.search(
                    r"\bclass %s\b" % self.klass, read("checks/" + header)):
                problems.append("class %s already exists in checks/%s"
                                % (self.klass, header))
        return problems

    def create(self, relative, text):
        os.makedirs(os.path.dirname(path(relative)), exist_ok=True)
        write(relative, text)
        self.created.append(relative)

    def write_header(self):
        self.create("checks/%s.h" % self.name, """\
// {name}: TODO: what it reports, in a sentence; the first lines of
// docs/checks/{name}.md say it at length.
#ifndef {guard}
#define {guard}

#include "checks/Check.h"

namespace warpfix {{

class {klass} : public Check {{
public:
  {klass}(llvm::StringRef Name, CheckContext &Context)
      : Check(Name, Context) {{}}

  void onCall(const clang::CallExpr &Call, clang::ASTContext &Ctx) override;
}};

}} // namespace warpfix

#endif
""".format(name=self.name, guard=self.guard, klass=self.klass))

    def write_source(self):
        self.create("checks/%s.cpp" % self.name, """\
#include "checks/{name}.h"

using namespace clang;

namespace warpfix {{

// TODO: the hooks this check needs (checks/Check.h: onCall, onAsm,
// onBinaryOperator, onDeclRef, onFunction, onVariable, onOtherDeclaration,
// onTranslationUnit, onEndOfTranslationUnit), declared in {name}.h.
void {klass}::onCall(const CallExpr &Call, ASTContext &Ctx) {{
  // Every call of the unit's user code comes here, so the cheapest test goes
  // first: most calls are not the one this check is about.
  const FunctionDecl *Callee = Call.getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "TODO_callee")
    return;
  // A call that a macro of a system header writes is not the user's to fix.
  if (isExpansionInSystemHeader(Call, Ctx.getSourceManager()))
    return;
  // TODO: decide, with the shared analyses (context().analyses(Ctx): Calls,
  // Lanes, Shapes, Members; checks/analysis/), whether this call is wrong,
  // then report it with its fix, or with the reason there is none:
  //   FindingBuilder Finding = report(Call.getBeginLoc(), "TODO: message");
  //   Finding.note(...);
  //   Finding.replace(...);                 // or insertBefore(...)
  //   Finding.withoutFix(Loc, "no automatic fix: TODO: why");
}}

}} // namespace warpfix
""".format(name=self.name, klass=self.klass))

    def register(self):
        relative = "checks/CheckRegistry.cpp"
        text = read(relative)
        lines = text.split("\n")
        # The #include, among those of the checks, in order.
        include = '#include "checks/%s.h"' % self.name
        checks = [i for i, l in enumerate(lines)
                  if re.match(r'#include "checks/[a-z][a-z0-9-]*\.h"$', l)]
        if not checks:
            self.by_hand.append("%s: #include \"checks/%s.h\"" % (relative, self.name))
            return
        at = next((i for i in checks if lines[i] > include), checks[-1] + 1)
        lines.insert(at, include)
        text = "\n".join(lines)
        # The row, in the table's order (the order of --list-checks).
        table = re.search(r"static const CheckInfo Registry\[\] = \{\n(.*?)\n\};",
                          text, re.S)
        if not table:
            self.by_hand.append("%s: the row of %s" % (relative, self.name))
            return
        row = """\
    {{"{name}",
     "{summary}",
     // TODO: the tokens without which a file holds nothing this check
     // reports (CheckInfo::TriggerTokens). Until they are right, the
     // prefilter skips every unit that only this check would parse.
     create<{klass}>, {klass}::options, "TODO_TRIGGER_TOKEN"}},""".format(
            name=self.name, summary=SUMMARY, klass=self.klass)
        body = table.group(1)
        starts = [m.start() for m in re.finditer(r'^    \{"', body, re.M)]
        names = re.findall(r'^    \{"([a-z0-9-]+)"', body, re.M)
        later = [s for s, n in zip(starts, names) if n > self.name]
        if later:
            body = body[:later[0]] + row + "\n" + body[later[0]:]
        else:
            body = body + "\n" + row
        text = text[:table.start(1)] + body + text[table.end(1):]
        write(relative, text)
        self.changed.append(relative)

    def add_source(self):
        relative = "checks/CMakeLists.txt"
        lines = read(relative).split("\n")
        try:
            start = next(i for i, l in enumerate(lines)
                         if l.startswith("add_library(warpfixChecks"))
            end = next(i for i in range(start, len(lines)) if lines[i] == ")")
        except StopIteration:
            self.by_hand.append("%s: %s.cpp in add_library(warpfixChecks)"
                                % (relative, self.name))
            return
        source = "  %s.cpp" % self.name
        # After the analyses, in the case-blind order of the list.
        own = [i for i in range(start + 1, end)
               if lines[i].strip() and not lines[i].strip().startswith("analysis/")]
        at = next((i for i in own if lines[i].strip().lower() > source.strip().lower()),
                  end)
        lines.insert(at, source)
        write(relative, "\n".join(lines))
        self.changed.append(relative)

    # -- docs and tests -----------------------------------------------------

    def write_doc(self):
        self.create("docs/checks/%s.md" % self.name, """\
# {name}

TODO: every section below, then delete each TODO. `warpfix --explain {name}`
prints this file as it is. docs/checks/warp-full-mask-divergent.md is a
short page to follow.

## What it reports
TODO: the code this check reports, and every form it recognises (directly,
through local variables, macros, wrapper functions), with the source of the
rule (NVIDIA's "Using CUDA Warp-Level Primitives", listing N).

## Why it matters
TODO: what goes wrong on Volta and later, where the lanes of a warp need not
run in lockstep, and what a user sees (a hang, a wrong result, a race).

## Not reported
TODO: the look-alikes that are right, and why; each is a case of the test
that must not be reported.

## The fix
TODO: what the fix writes, and what it must prove first.

```cuda
// before
TODO
// after
TODO
```

## When there is no fix
TODO: each reason, as the finding's note gives it ("no automatic fix: ...").

## Options
TODO: the options this check reads (command line, `.warpfix.yaml`, default),
or "None."
""".format(name=self.name))

    def write_test(self):
        self.create("test/{0}/{0}.cu".format(self.name), """\
// TODO: what this test shows, and where its code comes from. It fails until
// {name} reports the warning below: replace it with the real ones.
// RUN: %{copy-to-k}
// RUN: %expect-exit 1 %warpfix --checks=-*,{name} %t/k.cu 2>&1 | FileCheck %s --check-prefix=CHECK-MESSAGES --implicit-check-not=warning:
// RUN: %expect-exit 0 %warpfix --checks=-*,{name} --fix %t/k.cu
// RUN: FileCheck %s --check-prefix=CHECK-FIXES --match-full-lines --input-file=%t/k.cu
// RUN: cp %t/k.cu %t/once.cu
// RUN: %expect-exit 0 %warpfix --checks=-*,{name} --fix %t/k.cu 2>&1 | FileCheck %s --check-prefix=IDEMPOTENT
// RUN: diff %t/once.cu %t/k.cu
// RUN: %if nvcc %{{ %nvcc-check -arch=sm_90 %t/k.cu %}}
// RUN: %if nvcc %{{ %nvcc-check -arch=sm_75 %t/k.cu %}}
// IDEMPOTENT: 0 findings in 0 files (0 fixable)

// Reported, and fixed.
__global__ void reported(int *p) {{
  int v = p[threadIdx.x];
  p[threadIdx.x] = v; // TODO: the code {name} reports
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: TODO: the message [{name}]
}}
// CHECK-FIXES: TODO: the line as the fix writes it, in full

// Not reported: the look-alikes that are right (--implicit-check-not
// fails the test on any warning not listed above).
__global__ void not_reported(int *p) {{
  p[threadIdx.x] += 1; // TODO: code that must not be reported
}}
""".format(name=self.name))

    def add_readme_row(self):
        relative = "README.md"
        lines = read(relative).split("\n")
        rows = [i for i, l in enumerate(lines)
                if re.match(r"\| \[`[a-z0-9-]+`\]\(docs/checks/[a-z0-9-]+\.md\) \|", l)]
        if not rows:
            self.by_hand.append("%s: a row for %s in the table of checks"
                                % (relative, self.name))
            return
        row = ("| [`{0}`](docs/checks/{0}.md) | TODO: what it reports | "
               "TODO: what the fix writes, or none |").format(self.name)
        at = next((i for i in rows
                   if re.match(r"\| \[`([a-z0-9-]+)`", lines[i]).group(1) > self.name),
                  rows[-1] + 1)
        lines.insert(at, row)
        write(relative, "\n".join(lines))
        self.changed.append(relative)

    def insert_in_list(self, relative, prefix, make_line, after_first=None):
        """Inserts make_line(name) into the run of lines that begin with
        prefix ('ALL-NEXT:'), each naming a check, at the name's place in the
        order. The run starts at the line that begins with after_first, or
        at the first line with prefix. False where there is no such run."""
        lines = read(relative).split("\n")
        first = None
        for i, l in enumerate(lines):
            if after_first is not None and l.startswith(after_first):
                first = i + 1
                break
            if after_first is None and l.startswith(prefix):
                first = i
                break
        if first is None:
            return False
        run = []
        i = first
        while i < len(lines) and lines[i].startswith(prefix):
            m = re.search(r'((?:warp|cuda|block)-[a-z0-9-]+)', lines[i][len(prefix):])
            if not m:
                break
            run.append((i, m.group(1)))
            i += 1
        if not run:
            return False
        at = next((j for j, n in run if n > self.name), run[-1][0] + 1)
        lines.insert(at, make_line(self.name))
        write(relative, "\n".join(lines))
        return True

    def list_everywhere(self):
        """The tests that list every check: each list gets the new name."""
        name = self.name
        edits = []
        # The known checks, whatever is enabled: every error about a name.
        edits.append(("test/tool/unknown-check.test", "CHECK-NEXT: ",
                       lambda n: "CHECK-NEXT: " + n,
                       "CHECK: error: unknown check"))
        edits.append(("test/tool/explain.test", "UNKNOWN-NEXT: ",
                      lambda n: "UNKNOWN-NEXT: " + n, None))
        if self.enabled_by_default:
            # The enabled checks of a run with the default globs.
            edits.append(("test/tool/list-checks.test", "ALL-NEXT: ",
                          lambda n: "ALL-NEXT: %s - %s" % (n, SUMMARY.split(":")[0]),
                          None))
            edits.append(("test/tool/list-checks.test", "ALL-BUT-NEXT: ",
                          lambda n: "ALL-BUT-NEXT: " + n, None))
            edits.append(("test/tool/format-json.test", 'CHECK-NEXT:   "',
                          lambda n: 'CHECK-NEXT:   "%s",' % n,
                          'CHECK:      "checks": ['))
        for relative, prefix, make_line, after_first in edits:
            if self.insert_in_list(relative, prefix, make_line, after_first):
                if relative not in self.changed:
                    self.changed.append(relative)
            else:
                self.by_hand.append("%s: add %s to the list of %s lines"
                                    % (relative, name, prefix.strip()))
        if self.enabled_by_default:
            self.fix_json_commas("test/tool/format-json.test")
            self.add_stats_row("test/tool/stats.test")
            # explain-all.py explains the checks that --list-checks names.
            self.count_explained("test/tool/explain.test")
        for relative in ("test/soundness/fix-then-recheck.test",
                         "test/tool/fix-paths-agree.test"):
            self.add_test_folder(relative)

    def fix_json_commas(self, relative):
        """The last name of the JSON list has no comma after it."""
        lines = read(relative).split("\n")
        try:
            start = next(i for i, l in enumerate(lines)
                         if l.startswith('CHECK:      "checks": ['))
        except StopIteration:
            return
        names = []
        i = start + 1
        while i < len(lines) and re.match(r'CHECK-NEXT:   "[a-z0-9-]+",?$', lines[i]):
            names.append(i)
            i += 1
        for j in names:
            lines[j] = lines[j].rstrip(",") + ("" if j == names[-1] else ",")
        write(relative, "\n".join(lines))

    def add_stats_row(self, relative):
        """A row of zeros in the --stats table of a run with the default
        checks; the table's first column is as wide as its longest name."""
        lines = read(relative).split("\n")
        row_re = re.compile(r"^TEXT-NEXT:(\S+) +(\d+) +(\d+) +(\d+) +(\d+)$")
        head_re = re.compile(r"^TEXT-NEXT:check +findings")
        rows = [i for i, l in enumerate(lines) if row_re.match(l)]
        heads = [i for i, l in enumerate(lines) if head_re.match(l)]
        if not rows or len(heads) != 1:
            self.by_hand.append("%s: a row of %s in the TEXT table of --stats"
                                % (relative, self.name))
            return
        checks = [i for i in rows if row_re.match(lines[i]).group(1) != "total"]
        at = next((i for i in checks if row_re.match(lines[i]).group(1) > self.name),
                  checks[-1] + 1)
        # Reason lines ("    2 with no fix: ...") follow their check's row.
        while at < len(lines) and lines[at].startswith("TEXT-NEXT:    "):
            at += 1
        lines.insert(at, "TEXT-NEXT:%s 0 0 0 0" % self.name)
        # Stats.cpp: left_justify(name, width) then "  %8zu" four times.
        rows = [i for i, l in enumerate(lines) if row_re.match(l)]
        width = max([5] + [len(row_re.match(lines[i]).group(1)) for i in rows])
        for i in rows:
            m = row_re.match(lines[i])
            lines[i] = "TEXT-NEXT:" + m.group(1).ljust(width) + "".join(
                "  %8s" % m.group(k) for k in range(2, 6))
        lines[heads[0]] = ("TEXT-NEXT:" + "check".ljust(width)
                           + "  findings     fixed   fixable unfixable")
        write(relative, "\n".join(lines))
        if relative not in self.changed:
            self.changed.append(relative)

    def count_explained(self, relative):
        text = read(relative)
        m = re.search(r"explained (\d+) checks", text)
        if not m:
            self.by_hand.append("%s: the count of explained checks" % relative)
            return
        text = text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
        write(relative, text)
        if relative not in self.changed:
            self.changed.append(relative)

    def add_test_folder(self, relative):
        """The folders of the checks' lit tests that the fix tests cover: the
        new one goes after the last of them."""
        text = read(relative)
        folders = list(re.finditer(
            r"%srcroot/test/((?:warp|cuda|block)-[a-z0-9-]+)\b", text))
        if not folders:
            self.by_hand.append("%s: %%srcroot/test/%s among the test folders"
                                % (relative, self.name))
            return
        last = folders[-1]
        text = (text[:last.end()] + " %srcroot/test/" + self.name
                + text[last.end():])
        write(relative, text)
        self.changed.append(relative)

    # -- report -------------------------------------------------------------

    def left_to_do(self):
        n, k = self.name, self.klass
        todo = [
            "checks/%s.h, .cpp: the hooks %s needs, the test of each node "
            "(cheapest first), and the decision, with the shared analyses of "
            "checks/analysis/ rather than new ones where they answer" % (n, k),
            "checks/CheckRegistry.cpp: the one-line summary (--list-checks, "
            "SARIF) and the TriggerTokens; until the tokens are right the "
            "prefilter skips every unit that only %s would parse" % n,
            "the fix: the edits, or the reason there is none in a note that "
            "starts 'no automatic fix: '; a mask through MaskFix.h "
            "(emitMask), never a guess",
            "test/%s/: what must be reported, what must not (false-positive "
            "traps), the exact fixed text, a second --fix that changes "
            "nothing, nvcc compiling the fixed file; then the list of "
            "--stats counts in test/tool/stats.test if %s reports anything "
            "in test/tool/Inputs/reasons.cu" % (n, n),
            "docs/checks/%s.md: every TODO; the README row: both TODO cells, "
            "and test/tool/list-checks.test's ALL-NEXT line for the real "
            "summary" % n,
            "runtime-tests/cases/: a case with its expect.json where the fix "
            "changes what a kernel computes (runtime-tests/README.md, "
            "'Writing a case')",
            "an option: a CheckOptionInfo and a static options() in "
            "checks/%s.h (CONTRIBUTING.md, 'Adding a check option'), the "
            "'known:' list in test/tool/config.test, and the Options "
            "sections of docs/checks/%s.md and docs/usage.md" % (n, n),
            "optional: bench/real-world/sweeping/report.py (CHECKS_SHORT) "
            "to count its "
            "findings in the sweep",
        ]
        if not self.enabled_by_default:
            todo.append(
                "%s is not matched by the default checks 'warp-*,cuda-*': "
                "to enable it by default, change DefaultChecks in "
                "checks/CheckRegistry.h, the default in tool/warpfix.cpp's "
                "--checks help and docs/usage.md, the DEFAULTS line of "
                "test/tool/config.test, the '(warp|cuda)-' pattern of "
                "test/tool/list-checks.test, and add it to the lists of "
                "enabled checks in test/tool/list-checks.test, "
                "format-json.test and stats.test, and to the count of "
                "test/tool/explain.test. Until then explain.test fails: "
                "Inputs/explain-all.py explains the checks --list-checks "
                "names, and docs/checks/%s.md documents none of them"
                % (n, n))
        if fnmatch.fnmatchcase(n, "warp-legacy-*"):
            todo.append(
                "test/tool/list-checks.test: --checks=-*,warp-legacy-* now "
                "enables %s too (the ONE and CONFIG-BUT blocks)" % n)
        return todo

    def report(self):
        print("Created:")
        for f in self.created:
            print("  " + f)
        print("Changed:")
        for f in self.changed:
            print("  " + f)
        if self.by_hand:
            print("Not updated (the file changed shape; do it by hand):")
            for item in self.by_hand:
                print("  " + item)
        print("Left to do by hand (CONTRIBUTING.md, \"Adding a check\"):")
        for item in self.left_to_do():
            print("  - " + item)
        print("Then: ./scripts/test.sh. Until %s reports what "
              "test/%s/%s.cu expects, that test fails%s."
              % (self.name, self.name, self.name,
                 ", and only it" if self.enabled_by_default else ""))


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    scaffold = Scaffold(argv[1])
    problems = scaffold.validate()
    if problems:
        for p in problems:
            print("new-check.py: error: " + p, file=sys.stderr)
        return 1
    scaffold.write_header()
    scaffold.write_source()
    scaffold.register()
    scaffold.add_source()
    scaffold.write_doc()
    scaffold.write_test()
    scaffold.add_readme_row()
    scaffold.list_everywhere()
    scaffold.report()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
