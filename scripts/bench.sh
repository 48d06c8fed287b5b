#!/usr/bin/env bash
# Builds warpfix (installing what is missing), installs what only the
# benchmark needs (clang-tidy-19, the baseline warpfix is compared with), then
# runs bench/run.py with the arguments given. See bench/README.md.
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
cd "$repo_root"

bench_packages=(clang-tidy-19)

missing_packages=()
for package in "${bench_packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
    missing_packages+=("$package")
  fi
done
if [ ${#missing_packages[@]} -gt 0 ]; then
  echo "warpfix bench: installing ${missing_packages[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q >&2
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing_packages[@]}" >&2
fi

exec python3 bench/run.py "$@"
