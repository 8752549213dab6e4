"""The package's tests drive the real emulator: this repository's bin/bwc-emu (build it first:
npx tsc -p tsconfig.build.json && node scripts/build-web.js), or $BWC_EMU_COMMAND."""
import os
import sys
from typing import Any, List

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)

#: Whether pip installed the package: its pytest11 entry point has loaded the plugin (and so
#: the package) before this file. (Its metadata alone says nothing: a build leaves
#: python/bwc_emu.egg-info behind, found once python/ is on the path.)
PLUGIN_INSTALLED = "bwc_emu" in sys.modules

if not PLUGIN_INSTALLED:  # test this checkout's package
    sys.path.insert(0, PYTHON_DIR)

os.environ.setdefault("BWC_EMU_COMMAND", f"node {os.path.join(REPO, 'bin', 'bwc-emu')}")


pytest_plugins: List[str] = ["pytester"] + ([] if PLUGIN_INSTALLED else ["bwc_emu.pytest_plugin"])


def inner_pytest(pytester: Any, monkeypatch: Any, *args: str) -> Any:
    """Runs pytest in a subprocess on the files pytester made, with the plugin as pip installs
    it (its entry point) or, when it is not installed, this checkout's plugin named with -p and
    entry points off (a python/bwc_emu.egg-info left by a build would load it a second time)."""
    if PLUGIN_INSTALLED:
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=120)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [PYTHON_DIR, os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester.runpytest_subprocess("-p", "bwc_emu.pytest_plugin", "-p", "no:cacheprovider", *args, timeout=120)


def pytest_configure() -> None:
    """Stops early, saying what to do, when the emulator is not built."""
    import pytest

    if os.environ["BWC_EMU_COMMAND"].startswith("node ") and not os.path.isdir(os.path.join(REPO, "dist")):
        pytest.exit("build bwc-emu first: npx tsc -p tsconfig.build.json && node scripts/build-web.js", 2)
