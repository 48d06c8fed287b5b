"""Reporting: the table with one row per project and the TOTAL row (plain text
for standard output, Markdown for --markdown), the totals over the projects,
and the summary lines printed under the table (translation units, legacy
sites, crashes, the share fixed three ways, unfixable reasons).
"""
import collections

CHECKS_SHORT = collections.OrderedDict([
    ("warp-legacy-intrinsic", "legacy"),
    ("warp-activemask-mask", "amask"),
    ("warp-full-mask-divergent", "fullmask"),
    ("warp-missing-syncwarp", "syncwarp"),
])


COLUMNS = [
    ("project", lambda r: r["name"], "<"),
    ("TUs", lambda r: r["tu_status"]["tus"], ">"),
    ("clean", lambda r: r["tu_status"]["clean"], ">"),
    ("w/err", lambda r: r["tu_status"]["errors"], ">"),
    ("failed", lambda r: r["tu_status"]["failed"], ">"),
    ("crash", lambda r: r["tu_status"]["crashed"] + r["tu_status"]["timeout"] + r["tu_status"]["bad_output"], ">"),
    ("skip", lambda r: r["tu_status"]["skipped"], ">"),
    ("run", lambda r: short_run(r), "<"),
    ("find", lambda r: r["findings"], ">"),
    ("legacy", lambda r: r["findings_by_check"].get("warp-legacy-intrinsic", 0), ">"),
    ("amask", lambda r: r["findings_by_check"].get("warp-activemask-mask", 0), ">"),
    ("fullm", lambda r: r["findings_by_check"].get("warp-full-mask-divergent", 0), ">"),
    ("syncw", lambda r: r["findings_by_check"].get("warp-missing-syncwarp", 0), ">"),
    ("other", lambda r: sum(v for k, v in r["findings_by_check"].items() if k not in CHECKS_SHORT), ">"),
    ("fixable", lambda r: r["fixable"], ">"),
    ("fixed", lambda r: "-" if r.get("fixed") is None else r["fixed"], ">"),
    ("unfix", lambda r: r["unfixable"], ">"),
    ("sites", lambda r: r["legacy_sites"], ">"),
    ("found", lambda r: r["legacy_sites_found"], ">"),
    ("ptx", lambda r: r["ptx_sites"], ">"),
    ("ptxf", lambda r: r["ptx_sites_found"], ">"),
    ("wall s", lambda r: "%.0f" % r.get("wall_s", 0), ">"),
]


def short_run(r):
    s = r.get("check_run", {}).get("status", "?")
    if s == "crashed":
        s = "SIG%s" % r["check_run"].get("signal")
    fr = r.get("fix_run", {}).get("status")
    if fr == "crashed":
        s += "/fixSIG%s" % r["fix_run"].get("signal")
    elif fr in ("timeout", "bad-output", "not-run"):
        s += "/fix-" + fr
    return s


def share(part, whole):
    return "%d/%d (%.1f%%)" % (part, whole, 100.0 * part / whole) if whole else "0/0"


def totals(rows):
    t = {"name": "TOTAL", "tu_status": collections.Counter(), "findings": 0,
         "findings_by_check": collections.Counter(), "fixable": 0, "fixed": 0,
         "unfixable": 0, "refused_for_unit_errors": 0, "legacy_findings": 0,
         "legacy_fixable": 0, "legacy_sites": 0, "legacy_sites_found": 0,
         "legacy_sites_in_unanalysed_tus": 0, "ptx_sites": 0, "ptx_sites_found": 0,
         "legacy_sites_under_version_if": 0, "legacy_sites_under_version_if_found": 0,
         "legacy_sites_under_arch_if": 0, "legacy_sites_under_arch_if_found": 0,
         "wall_s": 0.0, "unfixable_by_reason": collections.Counter(),
         "check_run": {"status": ""}, "projects": 0, "projects_crashed": 0,
         "status": "done"}
    for r in rows:
        if r.get("status") != "done":
            continue
        t["projects"] += 1
        if r["check_run"]["status"] == "crashed":
            t["projects_crashed"] += 1
        t["tu_status"].update(r["tu_status"])
        for k in ("findings", "fixable", "unfixable", "refused_for_unit_errors",
                  "legacy_findings", "legacy_fixable", "legacy_sites", "legacy_sites_found",
                  "legacy_sites_in_unanalysed_tus", "ptx_sites", "ptx_sites_found",
                  "legacy_sites_under_version_if", "legacy_sites_under_version_if_found",
                  "legacy_sites_under_arch_if", "legacy_sites_under_arch_if_found"):
            t[k] += r.get(k, 0)
        t["fixed"] += r.get("fixed") or 0
        t["wall_s"] += r.get("wall_s", 0)
        t["findings_by_check"].update(r["findings_by_check"])
        t["unfixable_by_reason"].update(r["unfixable_by_reason"])
    t["tu_status"] = dict(t["tu_status"])
    for k in ("tus", "clean", "errors", "failed", "crashed", "timeout", "bad_output", "skipped"):
        t["tu_status"].setdefault(k, 0)
    t["findings_by_check"] = dict(t["findings_by_check"])
    t["unfixable_by_reason"] = dict(t["unfixable_by_reason"].most_common())
    t["check_run"]["status"] = "%d/%d crashed" % (t["projects_crashed"], t["projects"])
    ts = t["tu_status"]
    parsed = ts["tus"] - ts["skipped"]
    t["analysed_pct"] = round(100.0 * (ts["clean"] + ts["errors"]) / parsed, 1) if parsed else None
    t["sites_found_pct"] = round(100.0 * t["legacy_sites_found"] / t["legacy_sites"], 1) if t["legacy_sites"] else None
    return t


def table(rows, markdown=False):
    cells = []
    for r in rows:
        if r.get("status") != "done":
            cells.append([r["name"]] + ["-"] * (len(COLUMNS) - 2) + [r.get("status", "?")])
            continue
        cells.append([str(fn(r)) for _, fn, _ in COLUMNS])
    head = [c[0] for c in COLUMNS]
    widths = [max(len(head[i]), *(len(c[i]) for c in cells)) if cells else len(head[i])
              for i in range(len(head))]
    lines = []
    def fmt(vals):
        parts = []
        for i, v in enumerate(vals):
            parts.append(v.ljust(widths[i]) if COLUMNS[i][2] == "<" else v.rjust(widths[i]))
        return ("| " + " | ".join(parts) + " |") if markdown else "  ".join(parts)
    lines.append(fmt(head))
    if markdown:
        lines.append("|" + "|".join((":" if COLUMNS[i][2] == "<" else "-") + "-" * widths[i] +
                                    (":" if COLUMNS[i][2] == ">" else "-") for i in range(len(head))) + "|")
    for i, c in enumerate(cells):
        if not markdown and i == len(cells) - 1 and c[0] == "TOTAL":
            lines.append("-" * len(lines[0]))
        lines.append(fmt(c))
    return "\n".join(lines)


def print_summary(rows, tot):
    """The table of rows and tot, then the lines under it, on standard output."""
    print(table(rows + [tot]))
    print()
    ts = tot["tu_status"]
    print("translation units: %d; analysed clean %d, with errors %d, failed %d, crashed %d, "
          "timed out %d, garbage %d, skipped by the prefilter %d (analysed: %s%% of those parsed)" % (
              ts["tus"], ts["clean"], ts["errors"], ts["failed"], ts["crashed"], ts["timeout"],
              ts["bad_output"], ts["skipped"], tot["analysed_pct"]))
    print("legacy call sites (grep): %d, with a finding %d (%s%%), in units not analysed %d; "
          "inline PTX without .sync: %d, with a finding %d" % (
              tot["legacy_sites"], tot["legacy_sites_found"], tot["sites_found_pct"],
              tot["legacy_sites_in_unanalysed_tus"], tot["ptx_sites"], tot["ptx_sites_found"]))
    print("legacy sites inside an #if on a toolkit version: %d (with a finding %d); on __CUDA_ARCH__: "
          "%d (with a finding %d)" % (
              tot["legacy_sites_under_version_if"], tot["legacy_sites_under_version_if_found"],
              tot["legacy_sites_under_arch_if"], tot["legacy_sites_under_arch_if_found"]))
    print("projects whose whole run crashed: %d of %d" % (tot["projects_crashed"], tot["projects"]))
    print("fixed automatically: %s of all findings; %s of those not refused for the unit's clang "
          "errors; %s of legacy-call and PTX findings" % (
              share(tot["fixable"], tot["findings"]),
              share(tot["fixable"], tot["findings"] - tot["refused_for_unit_errors"]),
              share(tot["legacy_fixable"], tot["legacy_findings"])))
    if tot["unfixable_by_reason"]:
        print("\nunfixable, by reason:")
        for k, v in tot["unfixable_by_reason"].items():
            print("  %5d  %s" % (v, k))
