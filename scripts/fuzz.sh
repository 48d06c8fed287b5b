#!/usr/bin/env bash
# Builds the sanitized build with the libFuzzer targets of fuzz/ (installing
# what is missing) and runs each target for SECONDS (default 60), starting
# from its seed corpus in fuzz/corpus/<target>/. Inputs that add coverage are
# kept in fuzz/out/<target>/corpus, so that a later run goes on from there;
# an input that crashes a target, or breaks one of its checks, is saved as
# fuzz/out/<target>/crash-* and fails the script.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
warpfix_setup_skip_build=1
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo_root"
build_sanitized

seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for binary in "$sanitize_build_dir"/fuzz/*-fuzzer; do
    targets+=("$(basename "$binary")")
  done
fi

status=0
for target in "${targets[@]}"; do
  out="fuzz/out/$target"
  mkdir -p "$out/corpus"
  echo "== $target: ${seconds}s ==" >&2
  # One job on each core; -fork keeps going after a finding.
  if ! "$sanitize_build_dir/fuzz/$target" "$out/corpus" "fuzz/corpus/$target" \
      -max_total_time="$seconds" -fork="$(nproc)" -ignore_crashes=1 \
      -artifact_prefix="$out/" -print_final_stats=1 2>"$out/log"; then
    status=1
  fi
  grep -E "^#[0-9]+.*DONE|stat::number_of_executed_units|INFO: fuzzed for" "$out/log" | tail -3 >&2 || true
  if compgen -G "$out/crash-*" >/dev/null || compgen -G "$out/leak-*" >/dev/null ||
     compgen -G "$out/timeout-*" >/dev/null; then
    echo "$target: findings in $out:" >&2
    ls "$out" | grep -E "^(crash|leak|timeout)-" >&2
    status=1
  fi
done
exit "$status"
