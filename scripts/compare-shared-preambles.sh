#!/usr/bin/env bash
# Runs warpfix over every .cu file under test/ (the lit inputs) with shared
# preambles (the default) and without (--no-shared-preambles), as text, JSON
# and a diff, and fails unless each pair is byte-identical. Issue 18, part 2:
# the sharing must change nothing a run reports. Prints how long it took.
#   scripts/compare-shared-preambles.sh [warpfix binary] [-j N]
set -euo pipefail
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Absolute: the runs below are made from a scratch directory.
warpfix="$(realpath "${1:-$repo_root/build/bin/warpfix}")"
if [ ! -x "$warpfix" ]; then
  echo "no warpfix binary at $warpfix" >&2
  exit 2
fi
jobs="${2:-1}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# A copy, so that nothing of the source tree can be touched.
cp -r "$repo_root/test" "$scratch/test"
mapfile -t files < <(cd "$scratch" && find test -name '*.cu' | LC_ALL=C sort)
cd "$scratch"
start=$SECONDS
status=0
for mode in text json diff; do
  case $mode in
    text) args=() ;;
    json) args=(--format=json) ;;
    diff) args=(--diff) ;;
  esac
  for share in on off; do
    extra=()
    [ $share = off ] && extra=(--no-shared-preambles)
    # Findings (exit 1) and files that do not parse (exit 2) are expected;
    # anything else (a crash, no binary) would compare equal and prove nothing.
    rc=0
    "$warpfix" --no-cache -j "$jobs" "${args[@]}" ${extra[@]+"${extra[@]}"} \
      "${files[@]}" > "$mode.$share.out" 2> "$mode.$share.err" || rc=$?
    if [ $rc -gt 2 ] || [ ! -s "$mode.$share.out" ]; then
      echo "FAILED: $mode, shared preambles $share: exit $rc, $(wc -c < "$mode.$share.out") bytes of output" >&2
      tail -5 "$mode.$share.err" >&2
      status=1
    fi
  done
  for stream in out err; do
    if ! cmp -s "$mode.on.$stream" "$mode.off.$stream"; then
      echo "DIFFERENT: $mode, standard ${stream/err/error}${stream/out/output}:"
      diff "$mode.on.$stream" "$mode.off.$stream" | head -20
      status=1
    fi
  done
done
echo "${#files[@]} files, text/json/diff with and without shared preambles:" \
  "$([ $status = 0 ] && echo byte-identical || echo DIFFERENT)" \
  "($((SECONDS - start)) s, -j $jobs)"
exit $status
