#!/usr/bin/env bash
# Builds warpfix (installing what is missing), installs what only the
# benchmark needs (clang-tidy-19, the baseline warpfix is compared with), then
# runs bench/run.py with the arguments given. See bench/README.md.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo_root"

install_missing_packages "warpfix bench" clang-tidy-19

exec python3 bench/run.py "$@"
