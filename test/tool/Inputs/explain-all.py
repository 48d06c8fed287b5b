"""Checks --explain against docs/checks for every check of the registry
(--list-checks --checks=*: those off by default too).

Usage: explain-all.py WARPFIX DOCS_DIR. Exits 1 when a check's explanation
differs from its doc, or a doc names no check.
"""
import os
import subprocess
import sys

warpfix, docs_dir = sys.argv[1], sys.argv[2]
listing = subprocess.run([warpfix, "--list-checks", "--checks=*"], check=True,
                         capture_output=True, text=True).stdout
checks = [line.split(" - ", 1)[0].strip()
          for line in listing.splitlines()[1:] if " - " in line]
failed = False
for check in checks:
    shown = subprocess.run([warpfix, "--explain", check], check=True,
                           capture_output=True).stdout
    with open(os.path.join(docs_dir, check + ".md"), "rb") as doc:
        if shown != doc.read():
            print("--explain %s differs from %s.md" % (check, check))
            failed = True
for name in sorted(os.listdir(docs_dir)):
    if name.endswith(".md") and name[:-3] not in checks:
        print("%s documents no check" % name)
        failed = True
if failed:
    sys.exit(1)
print("explained %d checks, each as its docs/checks file" % len(checks))
