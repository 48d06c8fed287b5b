# lit configuration for the unit tests: every test of every gtest binary
# under the build's unittests/ folder whose name ends in "Tests" is one lit
# test, so that scripts/test.sh counts them with the lit suite.
import os

import lit.formats

config.name = "warpfix-unit"
config.test_format = lit.formats.GoogleTest(".", "Tests")
config.test_source_root = config.warpfix_unittests_dir
config.test_exec_root = config.warpfix_unittests_dir
# The parse finds the CUDA toolkit as warpfix does; the caller's choice of
# toolkit is passed on, as a user's would be.
for var in ("CUDA_PATH", "CUDA_HOME", "PATH", "HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
