#!/usr/bin/env bash
# Builds warpfix (installing what is missing) and runs the whole test suite:
# the lit tests (fixed outputs compiled with nvcc where it exists) and the
# analyses' unit tests (unittests/, one lit test each), then the
# prepare phase of the GPU runtime tests, which rewrites every case and
# compiles it with nvcc, and the tests of its timing phase against fake
# programs; the GPU phase itself runs on a GPU machine (see
# runtime-tests/README.md).
#
# --sanitize runs the lit tests on the sanitized build instead (build-sanitize:
# AddressSanitizer and UndefinedBehaviorSanitizer), then each fuzz target of
# fuzz/ over its seed corpus.
sanitize=0
if [ "${1:-}" = --sanitize ]; then
  sanitize=1
  warpfix_setup_skip_build=1
fi
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo_root"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
tested_dir=$build_dir
if [ "$sanitize" = 1 ]; then
  build_sanitized
  tested_dir=$sanitize_build_dir
fi
set +e
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv "$tested_dir/test" \
  "$tested_dir/unittests" 2>&1 | tee "$log"
lit_status=${PIPESTATUS[0]}
set -e
count() { sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$log" | head -n1; }
passed=$(count Passed); failed=$(count Failed)
passed=${passed:-0}; failed=${failed:-0}

other_status=0
if [ "$sanitize" = 1 ]; then
  # Each fuzz target runs its seeds once: they build, and the seeds pass.
  for binary in "$sanitize_build_dir"/fuzz/*-fuzzer; do
    target=$(basename "$binary")
    if "$binary" -runs=0 "fuzz/corpus/$target" >"$log" 2>&1; then
      echo "PASS: fuzz seeds :: $target"
      passed=$((passed + 1))
    else
      cat "$log"
      echo "FAIL: fuzz seeds :: $target"
      failed=$((failed + 1)); other_status=1
    fi
  done
elif command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="$PATH:/usr/local/cuda/bin"
  set +e
  python3 runtime-tests/run.py prepare -j "$(nproc)" 2>&1 | tee "$log"
  other_status=${PIPESTATUS[0]}
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

if [ "$sanitize" = 0 ]; then
  # The timing phase of the runtime tests, against fake case programs (no GPU).
  if python3 runtime-tests/test_timing.py >"$log" 2>&1; then
    echo "PASS: runtime-tests :: test_timing.py"
    passed=$((passed + 1))
  else
    cat "$log"
    echo "FAIL: runtime-tests :: test_timing.py"
    failed=$((failed + 1)); other_status=1
  fi
fi

echo "tests: $passed passed, $failed failed"
[ "$lit_status" -eq 0 ] && [ "$other_status" -eq 0 ]
