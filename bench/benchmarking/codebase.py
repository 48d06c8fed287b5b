"""The code base the benchmark times: generated under out/codebase (rewritten
on every run, identical for the same size and seed) with its
compile_commands.json under out/build, clang-tidy's database under out/tidy
holding the very command lines the clang parse runs, and the files among
them that need a full parse.
"""
import json
import os
import shutil
import types

from generating.codebase import KINDS, compile_commands, generate

from .clangflags import warpfix_parse_args
from .measuring import log
from .triggers import triggers_in, user_include_dirs


class CodeBase(types.SimpleNamespace):
    """The generated code base: root, build (the folder of its
    compile_commands.json), tidy_db (clang-tidy's database), tus ((path,
    kind) of each TU, in order), entries (the database's), kind_of, files,
    parse_args (the clang parse's command line of each file), needs (the
    trigger names found in each file) and full (the files that need a full
    parse)."""


def prepare(out, count, seed, cuda_path, compat, resource_dir):
    """Writes the code base and its databases under out; returns a CodeBase."""
    root = os.path.join(out, "codebase")
    build = os.path.join(out, "build")
    tidy_db = os.path.join(out, "tidy")
    for d in (root, build, tidy_db, os.path.join(out, "cache")):
        shutil.rmtree(d, ignore_errors=True)
    tus = generate(root, count, seed)
    entries = compile_commands(root, tus)
    os.makedirs(build)
    with open(os.path.join(build, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    kind_of = dict(tus)
    files = [p for p, _ in tus]
    parse_args = {e["file"]: warpfix_parse_args(e["arguments"], cuda_path,
                                                compat, resource_dir)
                  for e in entries}
    # clang-tidy reads the very command lines the clang parse runs.
    os.makedirs(tidy_db)
    with open(os.path.join(tidy_db, "compile_commands.json"), "w") as f:
        json.dump([{"directory": root, "file": p, "arguments": parse_args[p]}
                   for p in files], f, indent=1)
    needs = {}
    for e in entries:
        needs[e["file"]] = sorted(triggers_in(
            e["file"], user_include_dirs(e["arguments"]), set()))
    full = [p for p in files if needs[p]]
    log(f"bench: {len(files)} TUs in {root} "
        f"({', '.join(f'{k} {sum(1 for _, x in tus if x == k)}' for k in KINDS)}); "
        f"{len(full)} need a full parse")
    return CodeBase(root=root, build=build, tidy_db=tidy_db, tus=tus, entries=entries,
                    kind_of=kind_of, files=files, parse_args=parse_args, needs=needs,
                    full=full)
