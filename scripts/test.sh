#!/usr/bin/env bash
# Builds warpfix (installing what is missing) and runs the whole test suite:
# the lit tests, whose fixed outputs are compiled with nvcc where it exists.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo_root"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$build_dir/test" 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}
set -e

count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -n1; }
passed=$(count Passed); failed=$(count Failed)
echo "lit: ${passed:-0} passed, ${failed:-0} failed"
exit "$lit_status"
