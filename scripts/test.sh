#!/usr/bin/env bash
# Builds warpfix (installing what is missing) and runs the whole test suite:
# the lit tests (fixed outputs compiled with nvcc where it exists), then the
# prepare phase of the GPU runtime tests, which rewrites every case and
# compiles it with nvcc; the GPU phase itself runs on a GPU machine (see
# runtime-tests/README.md).
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
passed=${passed:-0}; failed=${failed:-0}

runtime_status=0
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
  set +e
  python3 runtime-tests/run.py prepare -j "$(nproc)" 2>&1 | tee "$log"
  runtime_status=${PIPESTATUS[0]}
  set -e
  prepared=$(sed -n 's/^prepared \([0-9]*\)\/\([0-9]*\) cases.*/\1 \2/p' "$log")
  if [ -n "$prepared" ]; then
    read -r ok total <<<"$prepared"
    passed=$((passed + ok)); failed=$((failed + total - ok))
  else
    failed=$((failed + 1))
  fi
else
  echo "runtime-tests: nvcc not found; the prepare phase was not run"
fi

echo "tests: $passed passed, $failed failed"
[ "$lit_status" -eq 0 ] && [ "$runtime_status" -eq 0 ]
