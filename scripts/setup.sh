# Sourced by demo.sh and test.sh: installs the Debian packages warpfix needs
# (only those missing), then configures and builds. Idempotent, and quick when
# nothing changed: dpkg-query and an up-to-date ninja build take a second.
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$repo_root/build"

required_packages=(clang-19 libclang-19-dev libclang-cpp19-dev llvm-19-dev
                   llvm-19-tools clang-tools-19 cmake ninja-build python3 patch
                   pre-commit python3-jsonschema libgtest-dev)

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

# build_warpfix DIR [CMAKE_ARGS...]: configures DIR once (with CMAKE_ARGS),
# then builds it.
build_warpfix() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S "$repo_root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >&2
  fi
  cmake --build "$dir" >&2
}

# The sanitized build: clang 19, AddressSanitizer and UndefinedBehaviorSanitizer
# on everything warpfix compiles, and the libFuzzer targets of fuzz/.
sanitize_build_dir="$repo_root/build-sanitize"
build_sanitized() {
  # compiler-rt: the sanitizer and libFuzzer runtimes.
  install_missing_packages "warpfix sanitized build" libclang-rt-19-dev
  build_warpfix "$sanitize_build_dir" -DCMAKE_CXX_COMPILER=clang++-19 \
    -DWARPFIX_SANITIZE=address,undefined -DWARPFIX_FUZZ=ON
}
# What a sanitizer finds fails the run, with a symbolized stack.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export ASAN_SYMBOLIZER_PATH="${ASAN_SYMBOLIZER_PATH:-/usr/lib/llvm-19/bin/llvm-symbolizer}"

install_missing_packages "warpfix setup" "${required_packages[@]}"

# Scripts that need only the sanitized build say so before sourcing this.
if [ "${warpfix_setup_skip_build:-0}" != 1 ]; then
  build_warpfix "$build_dir"
fi
