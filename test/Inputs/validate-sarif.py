"""Validates a SARIF log against the SARIF 2.1.0 JSON schema, then checks
what the schema cannot: every artifact URI is an absolute file:// URI, or
one relative to a uriBaseId that originalUriBaseIds gives as an absolute
file:// URI ending in '/'; each is percent-encoded exactly as warpfix
encodes (RFC 3986: all but unreserved characters and '/'), and names a file
that exists.

The schema beside this script, sarif-schema-2.1.0.json, is the OASIS SARIF
2.1.0 schema (errata 01, the "id" inside it gives its address), copied
unchanged so that a clean clone can run the test without the network.

Usage: validate-sarif.py SCHEMA FILE
Prints "valid: N results, M notifications" and exits 0, or prints each
problem and exits 1.
"""
import json
import os
import sys
import urllib.parse

import jsonschema


def uris(node):
    """(uri, uriBaseId or None) of every artifactLocation under node."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "artifactLocation":
                yield value["uri"], value.get("uriBaseId")
            elif key != "originalUriBaseIds":
                yield from uris(value)
    elif isinstance(node, list):
        for value in node:
            yield from uris(value)


def encoded_as_warpfix_does(path, uri):
    return urllib.parse.quote(path, safe="/") == uri


def main():
    schema_path, log_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    with open(log_path, encoding="utf-8") as f:
        log = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    problems = ["schema: %s at /%s" % (e.message, "/".join(map(str, e.path)))
                for e in sorted(validator.iter_errors(log), key=str)]
    bases = {}
    for name, base in log["runs"][0].get("originalUriBaseIds", {}).items():
        uri = base.get("uri", "")
        path = urllib.parse.unquote(uri[len("file://"):], errors="strict")
        if not uri.startswith("file:///") or not uri.endswith("/"):
            problems.append("base %s is not an absolute file URI of a folder: %s" % (name, uri))
        elif not encoded_as_warpfix_does(path, uri[len("file://"):]):
            problems.append("not percent-encoded as expected: " + uri)
        else:
            bases[name] = path
    for uri, base in uris(log):
        if base is not None:
            if base not in bases:
                problems.append("unknown uriBaseId %s of %s" % (base, uri))
                continue
            if uri.startswith("/") or ":" in uri.split("/")[0]:
                problems.append("not a relative URI: " + uri)
                continue
            path = urllib.parse.unquote(uri, errors="strict")
            if not encoded_as_warpfix_does(path, uri):
                problems.append("not percent-encoded as expected: " + uri)
            path = bases[base] + path
        elif not uri.startswith("file:///"):
            problems.append("not an absolute file URI: " + uri)
            continue
        else:
            path = urllib.parse.unquote(uri[len("file://"):], errors="strict")
            if not encoded_as_warpfix_does(path, uri[len("file://"):]):
                problems.append("not percent-encoded as expected: " + uri)
        if not os.path.exists(path):
            problems.append("no such file: " + uri)
    if problems:
        print("invalid:")
        for p in problems:
            print("  " + p)
        return 1
    run = log["runs"][0]
    notes = run["invocations"][0].get("toolExecutionNotifications", [])
    print("valid: %d results, %d notifications" % (len(run["results"]), len(notes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
