"""The pytest plugin (entry point ``pytest11``: ``bwc_emu``): the fixtures ``bwc_emu_session``
(one emulator for the whole run) and ``bwc_emu`` (that emulator, reset before each test with
the test's name as the report segment); on a failed test that used them, the grading report
of its segment is attached to its output ("bwc-emu report").

Harmless when unused: no emulator starts unless a test asks for a fixture.
Settings (command line first, then the environment for the command, then the ini file):
``--bwc-emu-command`` / ``$BWC_EMU_COMMAND`` / ``bwc_emu_command``, ``--bwc-emu-scenario`` /
``bwc_emu_scenario``, ``--bwc-emu-args`` / ``bwc_emu_args``, ``--bwc-emu-devices`` /
``bwc_emu_devices``, ``--bwc-emu-timeout`` / ``bwc_emu_timeout``.
"""
from __future__ import annotations

import os
import re
import shlex
from typing import Any, Callable, Dict, Generator, List, Optional, TypeVar, cast

import pytest

from .command import COMMAND_ENV
from .emulator import Emulator
from .errors import BwcEmuError
from .launch import start

#: The item's emulator, when its test used a fixture (read when the test has failed).
_USED: Dict[str, Emulator] = {}

SECTION = "bwc-emu report"

_F = TypeVar("_F", bound=Callable[..., Any])
#: pytest.hookimpl(hookwrapper=True), typed (older pluggy releases have no type hints).
_hookwrapper = cast(Callable[[_F], _F], pytest.hookimpl(hookwrapper=True))


def pytest_addoption(parser: pytest.Parser) -> None:
    """The command-line options and ini settings."""
    group = parser.getgroup("bwc-emu", "bwc-emu (the body worn camera emulator)")
    group.addoption("--bwc-emu-command", default=None, help=f"how to run bwc-emu, e.g. 'node path/bin/bwc-emu' (else ${COMMAND_ENV}, ini bwc_emu_command, bwc-emu on PATH, npx)")
    group.addoption("--bwc-emu-scenario", action="append", default=None, help="scenario name or file, one device each (repeatable)")
    group.addoption("--bwc-emu-args", default=None, help="more bwc-emu flags, in one string: '--auth none --speed 10'")
    group.addoption("--bwc-emu-devices", type=int, default=None, help="run a fleet of this many devices")
    group.addoption("--bwc-emu-timeout", type=float, default=None, help="seconds to wait for bwc-emu to get ready (default 30)")
    parser.addini("bwc_emu_command", "how to run bwc-emu (split like a shell would)", default="")
    parser.addini("bwc_emu_scenario", "scenario names or files, one device each", type="args", default=[])
    parser.addini("bwc_emu_args", "more bwc-emu flags", type="args", default=[])
    parser.addini("bwc_emu_devices", "run a fleet of this many devices", default="1")
    parser.addini("bwc_emu_timeout", "seconds to wait for bwc-emu to get ready", default="30")


def _settings(config: pytest.Config) -> Dict[str, Any]:
    """start()'s arguments from the command line, else the ini file."""
    command: Optional[str] = config.getoption("--bwc-emu-command") or os.environ.get(COMMAND_ENV) or config.getini("bwc_emu_command") or None
    scenarios: List[str] = config.getoption("--bwc-emu-scenario") or list(config.getini("bwc_emu_scenario"))
    args_option = config.getoption("--bwc-emu-args")
    args: List[str] = shlex.split(args_option) if args_option is not None else list(config.getini("bwc_emu_args"))
    devices = config.getoption("--bwc-emu-devices") or int(config.getini("bwc_emu_devices") or 1)
    timeout = config.getoption("--bwc-emu-timeout") or float(config.getini("bwc_emu_timeout") or 30)
    return {"command": command, "scenario": scenarios or None, "args": args, "devices": devices, "timeout": timeout}


@pytest.fixture(scope="session")
def bwc_emu_session(pytestconfig: pytest.Config) -> Generator[Emulator, None, None]:
    """One emulator for the whole test run (not reset between tests), closed at its end."""
    emulator = start(**_settings(pytestconfig))
    try:
        yield emulator
    finally:
        emulator.close()


def segment_name(nodeid: str) -> str:
    """A report segment name from a test id: no control characters, at most 200 characters."""
    name = re.sub(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", " ", nodeid).strip() or "test"
    return name if len(name) <= 200 else "..." + name[-197:]


@pytest.fixture
def bwc_emu(bwc_emu_session: Emulator, request: pytest.FixtureRequest) -> Generator[Emulator, None, None]:
    """The session's emulator, reset for this test: a fresh start whose report segment is
    named after the test (the report of a failed test is attached to its output)."""
    bwc_emu_session.reset(segment=segment_name(request.node.nodeid))
    _USED[request.node.nodeid] = bwc_emu_session
    yield bwc_emu_session


def _report_text(emulator: Emulator, nodeid: str) -> str:
    """The grading report of the test's segment, or why there is none."""
    if emulator.closed:
        return "(the emulator was closed before the report could be read)"
    try:
        return emulator.report(segments="current").text(segment_name(nodeid))
    except BwcEmuError as error:
        return f"(the report could not be read: {error})"


@_hookwrapper
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """Attaches the grading report to a failed test that used the emulator."""
    outcome = yield
    emulator = _USED.get(item.nodeid)
    if emulator is None:
        return
    report: pytest.TestReport = outcome.get_result()
    if report.failed and call.when in ("setup", "call"):
        report.sections.append((SECTION, _report_text(emulator, item.nodeid)))
    if call.when == "teardown":
        _USED.pop(item.nodeid, None)
