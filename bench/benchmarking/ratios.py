"""The ratios the benchmark is judged on, each against its target (met, NOT
MET, a reference, or n/a where a run is missing or the binary lacks a flag):
warpfix against the clang parse and clang-tidy, the -j2 speed-up, the warm
cache, peak RSS, and shared preambles on and off (issue 18).  Targets are
printed, never asserted.
"""


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def ratio_rows(t, clang_full, flags):
    """The rows of the ratio table from the Timings t; clang_full is the clang
    parse over the full-parse TUs."""
    clang, tidy, cold, cold_full = t.clang, t.tidy, t.cold, t.cold_full
    cold_off, cold_full_off, j2, warm = t.cold_off, t.cold_full_off, t.j2, t.warm
    rows = [
        {"ratio": "warpfix cold / clang parse, on files that need a full parse",
         "measure": "CPU", "target": "<= 1.10", "limit": 1.10, "le": True,
         "value": ratio(cold_full.cpu if cold_full else None, clang_full.cpu),
         "wall": ratio(cold_full.wall if cold_full else None, clang_full.wall),
         "missing": None},
        {"ratio": "warpfix cold / clang-tidy, on the whole mixed code base",
         "measure": "CPU", "target": "<= 0.5", "limit": 0.5, "le": True,
         "value": ratio(cold.cpu, tidy.cpu), "wall": ratio(cold.wall, tidy.wall),
         "missing": None},
        {"ratio": "warpfix -j2 / -j1 speed-up",
         "measure": "wall", "target": ">= 1.8", "limit": 1.8, "le": False,
         "value": ratio(cold.wall, j2.wall) if j2 else None,
         "wall": ratio(cold.wall, j2.wall) if j2 else None,
         "missing": None if flags["-j"] else "-j"},
        {"ratio": "warm cache run / cold run",
         "measure": "wall", "target": "<= 0.05", "limit": 0.05, "le": True,
         "value": ratio(warm.wall, cold.wall) if warm else None,
         "wall": ratio(warm.wall, cold.wall) if warm else None,
         "missing": None if flags["--cache-dir"] else "--cache-dir"},
        {"ratio": "peak RSS per worker / clang parse peak RSS",
         "measure": "RSS", "target": "<= 1.2", "limit": 1.2, "le": True,
         "value": ratio(cold.maxrss, clang.maxrss), "wall": None,
         "missing": None},
    ]
    # Issue 18 part 2: shared preambles, on (the default) and off.
    share_missing = None if flags["--no-shared-preambles"] else "--no-shared-preambles"
    rows += [
        {"ratio": "warpfix cold / sum of clang parses, full-parse TUs, shared preambles on",
         "measure": "CPU", "target": "<= 0.4", "limit": 0.4, "le": True,
         "value": ratio(cold_full.cpu if cold_full else None, clang_full.cpu),
         "wall": ratio(cold_full.wall if cold_full else None, clang_full.wall),
         "missing": None},
        {"ratio": "warpfix cold / sum of clang parses, full-parse TUs, shared preambles off",
         "measure": "CPU", "target": "(reference)", "limit": float("inf"), "le": True,
         "value": ratio(cold_full_off.cpu if cold_full_off else None, clang_full.cpu),
         "wall": ratio(cold_full_off.wall if cold_full_off else None, clang_full.wall),
         "missing": share_missing},
        {"ratio": "warpfix cold / sum of clang parses, all TUs, shared preambles on",
         "measure": "CPU", "target": "(reference)", "limit": float("inf"), "le": True,
         "value": ratio(cold.cpu, clang.cpu), "wall": ratio(cold.wall, clang.wall),
         "missing": None},
        {"ratio": "warpfix cold / sum of clang parses, all TUs, shared preambles off",
         "measure": "CPU", "target": "(reference)", "limit": float("inf"), "le": True,
         "value": ratio(cold_off.cpu, clang.cpu) if cold_off else None,
         "wall": ratio(cold_off.wall, clang.wall) if cold_off else None,
         "missing": share_missing},
        {"ratio": "peak RSS per worker, shared preambles on / off",
         "measure": "RSS", "target": "<= 1.05 (the same)", "limit": 1.05, "le": True,
         "value": ratio(cold.maxrss, cold_off.maxrss) if cold_off else None,
         "wall": None, "missing": share_missing},
    ]
    for row in rows:
        v = row["value"]
        if row["missing"]:
            row["status"] = f"n/a (flag {row['missing']} missing)"
        elif v is None:
            row["status"] = "n/a"
        elif row["limit"] == float("inf"):
            row["status"] = "reference"
        else:
            ok = v <= row["limit"] if row["le"] else v >= row["limit"]
            row["status"] = "met" if ok else "NOT MET"
    return rows
