# Sourced by demo.sh and test.sh: installs the Debian packages warpfix needs
# (only those missing), then configures and builds. Idempotent, and quick when
# nothing changed: dpkg-query and an up-to-date ninja build take a second.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$repo_root/build"

required_packages=(clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev
                   llvm-19-tools clang-tools-19 cmake ninja-build python3 patch
                   pre-commit python3-jsonschema)

# install_missing_packages LABEL PACKAGE...: installs, through apt, those of
# the Debian packages that are not installed yet; LABEL names the caller in
# the message. Also used by bench.sh for what only the benchmark needs.
install_missing_packages() {
  local label=$1 package
  shift
  local missing_packages=()
  for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
      missing_packages+=("$package")
    fi
  done
  [ ${#missing_packages[@]} -gt 0 ] || return 0
  echo "$label: installing ${missing_packages[*]}" >&2
  local sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q >&2
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing_packages[@]}" >&2
}

install_missing_packages "warpfix setup" "${required_packages[@]}"

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$repo_root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
cmake --build "$build_dir" >&2
