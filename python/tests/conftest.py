"""The package's tests drive the real emulator: this repository's bin/bwc-emu (build it first:
npx tsc -p tsconfig.build.json && node scripts/build-web.js), or $BWC_EMU_COMMAND."""
import os
import sys
from typing import List

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON_DIR)

if "bwc_emu" not in sys.modules:  # test this checkout's package unless pip installed one
    sys.path.insert(0, PYTHON_DIR)

os.environ.setdefault("BWC_EMU_COMMAND", f"node {os.path.join(REPO, 'bin', 'bwc-emu')}")


def _plugin_installed() -> bool:
    """Whether pip installed the package, so its pytest11 entry point loads the plugin already."""
    from importlib.metadata import entry_points

    found = entry_points()
    group = found.select(group="pytest11") if hasattr(found, "select") else found.get("pytest11", [])
    return any(e.name == "bwc_emu" for e in group)


PLUGIN_INSTALLED = _plugin_installed()
pytest_plugins: List[str] = ["pytester"] + ([] if PLUGIN_INSTALLED else ["bwc_emu.pytest_plugin"])


def pytest_configure() -> None:
    """Stops early, saying what to do, when the emulator is not built."""
    import pytest

    if os.environ["BWC_EMU_COMMAND"].startswith("node ") and not os.path.isdir(os.path.join(REPO, "dist")):
        pytest.exit("build bwc-emu first: npx tsc -p tsconfig.build.json && node scripts/build-web.js", 2)
