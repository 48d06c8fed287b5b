# lit configuration for warpfix. One folder per check, plus tool/ for the
# command line; a file is a test when its name ends in .cu, .cuh or .test.
import os
import shutil
import subprocess

import lit.formats

config.name = "warpfix"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.warpfix_bin), "..", "test")

tools = config.llvm_tools_dir
config.substitutions.append(("%warpfix", config.warpfix_bin))
config.substitutions.append(("%clang-apply-replacements",
                             os.path.join(tools, "clang-apply-replacements")))
config.substitutions.append(("%fake-cuda",
                             os.path.join(config.test_source_root, "Inputs", "fake-cuda")))
config.substitutions.append(("%python", config.python))
config.substitutions.append(("%expect-exit", config.python + " " + os.path.join(
    config.test_source_root, "Inputs", "expect-exit.py")))
config.substitutions.append(("%srcroot", config.warpfix_source_dir))
# The start of most check tests: the test file, copied alone into a fresh
# folder as k.cu, for --fix to rewrite. lit expands %t and %s after these.
config.substitutions.append(
    ("%{copy-to-k}", "rm -rf %t && mkdir -p %t && cp %s %t/k.cu"))
# A tool name is replaced only where it stands as a command, not inside words
# such as --implicit-check-not=.
for tool in ("FileCheck", "not", "count", "split-file"):
    config.substitutions.append((r"(?<![-\w/.=])%s(?![-\w.=])" % tool,
                                 os.path.join(tools, tool)))

# Fixed outputs must compile with the real nvcc where one exists: warnings are
# errors, and the newest architecture we claim to support.
# The toolkit is found as warpfix finds it (tool/input/CudaToolkit.cpp), by its
# include/cuda.h: an nvcc on PATH may be a wrapper script (/usr/local/bin/nvcc
# on the CI machines), whose directory is no toolkit.
def is_toolkit(root):
    return bool(root) and os.path.exists(os.path.join(root, "include", "cuda.h"))

def cuda_toolkit():
    for candidate in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"),
                      "/usr/local/cuda"):
        if is_toolkit(candidate):
            return os.path.realpath(candidate)
    on_path = shutil.which("nvcc")
    if on_path:
        root = os.path.dirname(os.path.dirname(os.path.realpath(on_path)))
        if is_toolkit(root):
            return root
    return None

toolkit = cuda_toolkit()
nvcc = os.path.join(toolkit, "bin", "nvcc") if toolkit else ""
if os.path.exists(nvcc):
    config.available_features.add("nvcc")
    config.substitutions.append(
        ("%nvcc-check", nvcc + " -Werror all-warnings -c -o /dev/null"))
    config.substitutions.append(("%{nvcc}", nvcc))

# Templates with named operands (%[x]) are clang CUDA: nvcc 13 rejects
# symbolic operand references ("symbolic operand reference not supported!").
# For those, clang 19 writes the PTX and ptxas assembles it.
clang = os.path.join(tools, "clang")
config.substitutions.append(("%{clang}", clang))
ptxas = os.path.join(toolkit, "bin", "ptxas") if toolkit else ""
if os.path.exists(clang) and os.path.exists(ptxas):
    config.available_features.add("clang-ptxas")
    config.substitutions.append(("%clang-cuda-ptx", " ".join([
        clang, "-x", "cuda", "--cuda-device-only", "--cuda-path=" + toolkit,
        "-Wno-unknown-cuda-version", "-isystem",
        os.path.join(config.warpfix_source_dir, "tool", "compat"),
        "-isystem", os.path.join(toolkit, "include", "cccl"), "-S"])))
    config.substitutions.append(("%ptxas-check",
                                 ptxas + " -Werror -o /dev/null"))

# The SARIF test validates against the official schema with python3-jsonschema.
if subprocess.call([config.python, "-c", "import jsonschema"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0:
    config.available_features.add("jsonschema")

# The tests control the toolkit explicitly; the caller's must not leak in.
for var in ("CUDA_PATH", "CUDA_HOME"):
    config.environment.pop(var, None)
config.environment["PATH"] = os.environ.get("PATH", "")
# The result cache must not reach into the user's home, nor carry results from
# an earlier build of warpfix into this run: a fresh one per run.
xdg_cache = os.path.join(config.test_exec_root, "xdg-cache")
shutil.rmtree(xdg_cache, ignore_errors=True)
config.environment["XDG_CACHE_HOME"] = xdg_cache
# PATH with this build's warpfix first, for what finds warpfix by name (the
# pre-commit hooks); lit's shell does not expand $PATH itself.
config.substitutions.append(("%{path-with-warpfix}", os.pathsep.join(
    [os.path.dirname(config.warpfix_bin), config.environment["PATH"]])))
config.substitutions.append(("%{builddir}", config.warpfix_build_dir))
config.substitutions.append(("%{cmake}", config.cmake))
# A real pre-commit drives the hooks of .pre-commit-hooks.yaml.
if shutil.which("pre-commit") and shutil.which("git"):
    config.available_features.add("pre-commit")
if os.getuid() == 0:
    config.available_features.add("root")
# The sanitized build (scripts/test.sh --sanitize).
if getattr(config, "warpfix_sanitize", ""):
    config.available_features.add("sanitized")
