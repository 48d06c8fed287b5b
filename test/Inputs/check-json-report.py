"""Checks a warpfix --format=json report against docs/json-format.md: the
fields and their types, line and column recomputed from each offset and the
file's bytes, and the summary recomputed from the findings.

Usage: check-json-report.py FILE [ANALYSED_DIR ORIGINAL_DIR]
After --fix, the positions describe the files as they were analysed: give
the directory that was fixed and a copy of it taken before, and the files are
read from the copy.
Prints "ok: N findings, M fixable, K fixed" and exits 0, or prints each
problem and exits 1.
"""
import json
import sys

problems = []
REMAP = tuple(sys.argv[2:4])


def expect(cond, what):
    if not cond:
        problems.append(what)


def check_place(obj, where, contents):
    for key in ("file", "offset", "line", "column"):
        expect(key in obj, "%s: no %s" % (where, key))
    if obj.get("file") is None:
        return
    path = obj["file"]
    if path not in contents:
        with open(path.replace(*REMAP, 1) if REMAP else path, "rb") as f:
            contents[path] = f.read()
    data = contents[path]
    offset = obj["offset"]
    expect(isinstance(offset, int) and 0 <= offset <= len(data),
           "%s: offset %r outside the file" % (where, offset))
    line_start = data.rfind(b"\n", 0, offset) + 1
    expect(obj["line"] == data.count(b"\n", 0, offset) + 1,
           "%s: line %r" % (where, obj["line"]))
    expect(obj["column"] == offset - line_start + 1,
           "%s: column %r" % (where, obj["column"]))


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        report = json.load(f)
    contents = {}
    expect(report.get("version") == 1, "version is not 1")
    expect(report["tool"]["name"] == "warpfix", "tool.name")
    for key in ("version", "llvmVersion"):
        expect(isinstance(report["tool"].get(key), str), "tool." + key)
    expect(isinstance(report["fixRequested"], bool), "fixRequested")
    expect(all(isinstance(c, str) for c in report["checks"]), "checks")
    findings = report["findings"]
    for i, f in enumerate(findings):
        where = "findings[%d]" % i
        expect(f["check"] in report["checks"], where + ": check not enabled")
        expect(isinstance(f["message"], str) and f["message"], where + ": message")
        check_place(f, where, contents)
        expect(f["fixable"] == (f["fix"] is not None), where + ": fixable vs fix")
        expect(not f["fixed"] or f["fixable"], where + ": fixed but not fixable")
        expect(f["fixed"] is False or report["fixRequested"], where + ": fixed without --fix")
        expect((f["noFixReason"] is None) == f["fixable"], where + ": noFixReason")
        for j, n in enumerate(f["notes"]):
            expect(isinstance(n["message"], str), "%s.notes[%d]: message" % (where, j))
            check_place(n, "%s.notes[%d]" % (where, j), contents)
        if f["fix"] is not None:
            files = [x["file"] for x in f["fix"]["files"]]
            expect(files == sorted(files), where + ": fix files unsorted")
            for x in f["fix"]["files"]:
                offsets = [e["offset"] for e in x["edits"]]
                expect(offsets == sorted(offsets), where + ": edits unsorted")
                for k, e in enumerate(x["edits"]):
                    check_place(dict(e, file=x["file"]), "%s.edit[%d]" % (where, k), contents)
                    expect(isinstance(e["length"], int), where + ": length")
                    expect(isinstance(e["replacement"], str), where + ": replacement")
    keys = [(f["file"], f["offset"], f["check"], f["message"]) for f in findings]
    expect(keys == sorted(keys), "findings are not sorted by file, offset, check, message")
    headers = report["headers"]
    for m in headers["missing"]:
        expect(isinstance(m["name"], str) and m["units"] >= 1 and
               m["withheldFindings"] >= 0, "headers.missing")
    expect([m["units"] for m in headers["missing"]] ==
           sorted((m["units"] for m in headers["missing"]), reverse=True),
           "headers.missing not by units")
    for key in ("foundByName", "rejectedByName"):
        for h in headers[key]:
            expect(isinstance(h["name"], str) and isinstance(h["folder"], str)
                   and h["units"] >= 1, "headers." + key)
    s = report["summary"]
    fixable = sum(f["fixable"] for f in findings)
    fixed = sum(f["fixed"] for f in findings)
    expect(s["findings"] == len(findings), "summary.findings")
    expect(s["files"] == len({f["file"] for f in findings}), "summary.files")
    expect(s["fixable"] == fixable, "summary.fixable")
    expect(s["fixed"] == fixed, "summary.fixed")
    uncalled = sum(1 for f in findings if any(
        n["message"].startswith("no automatic fix: every analysed translation "
                                "unit abstains") for n in f["notes"]))
    expect(s["uncalled"] == uncalled, "summary.uncalled")
    for_review = sum(1 for f in findings if f["fixed"] and any(
        "review this mask" in e["replacement"]
        for file in f["fix"]["files"] for e in file["edits"]))
    expect(s["fixedForReview"] == for_review, "summary.fixedForReview")
    expect(s["remaining"] == len(findings) - fixed + for_review,
           "summary.remaining")
    expect(s["failedFiles"] == len(report["failedFiles"]), "summary.failedFiles")
    expect(s["errors"] == len(report["errors"]), "summary.errors")
    expect(s["skippedTranslationUnits"] == 0, "summary.skippedTranslationUnits")
    if problems:
        print("problems:")
        for p in problems:
            print("  " + p)
        return 1
    print("ok: %d findings, %d fixable, %d fixed" % (len(findings), fixable, fixed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
