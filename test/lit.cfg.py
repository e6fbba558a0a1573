# lit configuration for ptoc. test/ mirrors the source tree: test/ir (the core
# language), test/dialect/<d>, test/passes, test/tools, test/robust (bad input
# never crashes), test/conformance (round trips through upstream mlir-opt).
# lit.site.cfg.py (configured by CMake into the build tree) sets the paths and
# loads this file; run the suite with
#   python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv build/test
import os

import lit.formats
import lit.llvm
from lit.llvm.subst import ToolSubst

lit.llvm.initialize(lit_config, config)
from lit.llvm import llvm_config  # noqa: E402 (set by initialize)

config.name = "ptoc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".pto", ".ptoas", ".test"]
# Inputs/ holds files other tests read; unit/ is run by ctest directly.
config.excludes = ["Inputs", "unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py",
                   "README.md", "exempt.txt"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.ptoc_obj_root, "test")

# FileCheck, not, count and %python from LLVM 19; then our tools and the rest.
llvm_config.use_default_substitutions()
llvm_config.add_tool_substitutions(
    [ToolSubst("ptoc-opt", unresolved="fatal"), ToolSubst("ptoc", unresolved="fatal")],
    [config.ptoc_tools_dir])
llvm_config.add_tool_substitutions([ToolSubst("split-file", unresolved="fatal")],
                                   [config.llvm_tools_dir])
config.substitutions.append(("%mlir_opt", config.mlir_opt))
config.substitutions.append(("%ptoc_src_root", config.ptoc_src_root))
config.substitutions.append(("%ptoc_tools_dir", config.ptoc_tools_dir))

# Tools a test runs without a substitution (e.g. from a python driver) are found
# on PATH: ours first, then LLVM's.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.ptoc_tools_dir, append_path=True)
config.environment["PTOC_SRC_ROOT"] = config.ptoc_src_root
config.environment["PTOC_TOOLS_DIR"] = config.ptoc_tools_dir
config.environment["PTOC_MLIR_OPT"] = config.mlir_opt

# What ptoc takes for the host when no -mcpu is given (codegen/emit.c): ctest's
# lit.no-avx512 runs the suite with PTOC_HOST_FEATURES=-avx512f.
for var in ("PTOC_HOST_CPU", "PTOC_HOST_FEATURES"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
