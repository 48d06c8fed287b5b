#!/usr/bin/env bash
# Builds warpfix (installing what is missing), installs what only the
# benchmark needs (clang-tidy-19, the baseline warpfix is compared with), then
# runs bench/run.py with the arguments given, then shows the GPU timings of the
# runtime tests. See bench/README.md.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo_root"

install_missing_packages "warpfix bench" clang-tidy-19

status=0
python3 bench/run.py "$@" || status=$?

# The GPU timings of the runtime tests (issue 18): rewritten/original kernel
# time per case, with the noise band. A machine with a GPU and a prepared
# runtime-tests/out measures them now (run.py run --timing-only, a few
# minutes; BENCH_GPU=0 skips that). Any other machine shows those of the last
# GPU run, committed in runtime-tests/results.json, labelled as such with the
# device and date they come from.
echo
timing_results=runtime-tests/results.json
measured=()
if [ "${BENCH_GPU:-1}" != 0 ] && [ -f runtime-tests/out/manifest.json ] &&
   nvidia-smi -L >/dev/null 2>&1; then
  # A program that failed while timed is a tool failure; a ratio never is.
  python3 runtime-tests/out/run.py run runtime-tests/out --timing-only ||
    { [ "$status" -ne 0 ] || status=1; }
  timing_results=runtime-tests/out/results.json
  measured=(--measured-here)
fi
python3 runtime-tests/run.py timing-table ${measured[@]+"${measured[@]}"} "$timing_results"
exit "$status"
