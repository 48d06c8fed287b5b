"""The findings of warpfix's runs: counted and put in a canonical form, from
--format=json where the binary has it, else from the text output
(findings_of), and the whole-code-base runs compared, which must agree
(compare_runs).
"""
import json
import re
import types

FINDING = re.compile(r"^[^\s].*?:\d+:\d+: warning: .*\[(warp-[a-z-]+)\]\s*$",
                     re.M)
SUMMARY = re.compile(r"(\d+) findings? in (\d+) files?")


def findings_of(run, json_format):
    """(count, canonical text) of a warpfix run's findings."""
    if json_format:
        try:
            data = json.loads(run.stdout)
            items = data if isinstance(data, list) else (
                data.get("findings") or data.get("diagnostics") or [])
            canon = json.dumps(sorted(json.dumps(i, sort_keys=True)
                                      for i in items))
            return len(items), canon
        except (ValueError, AttributeError):
            pass
    lines = FINDING.findall(run.stdout)
    if lines:
        return len(lines), "\n".join(sorted(run.stdout.splitlines()))
    m = SUMMARY.search(run.stderr)
    count = int(m.group(1)) if m else None
    return count, "\n".join(sorted(run.stdout.splitlines()))


class Agreement(types.SimpleNamespace):
    """What compare_runs found: counts (the findings of each run by key, None
    where unknown), compared (the keys of the whole-code-base runs), disagree
    (those whose findings differ from the cold run's) and comparable (whether
    all could be compared)."""


def compare_runs(warpfix_runs, json_format, loud):
    """The findings of each run of warpfix_runs ({key: (label, run)}), and
    whether the whole-code-base runs agree, as an Agreement; a disagreement,
    or output that cannot be compared, is appended to loud."""
    counts = {}
    canon = {}
    for key, (label, r) in warpfix_runs.items():
        counts[key], canon[key] = findings_of(r, json_format)
    compared = [k for k in ("cold", "cold_noshare", "j2", "fill", "warm")
                if k in canon]
    disagree = [k for k in compared if canon[k] != canon["cold"]]
    comparable = all(counts[k] is not None or canon[k] for k in compared)
    if disagree:
        loud.append("FINDINGS DIFFER between the warpfix runs: "
                    + ", ".join(f"{k} ({counts[k]})" for k in disagree)
                    + f" vs cold ({counts['cold']}); they must be identical")
    elif not comparable:
        loud.append("the findings of the warpfix runs could not be compared: "
                    "their output holds neither findings nor a summary")
    return Agreement(counts=counts, compared=compared, disagree=disagree,
                     comparable=comparable)
