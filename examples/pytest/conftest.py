"""bwc-emu as a pytest fixture: started once as a subprocess, found through its ready line,
reset through its control API before every test."""
import json
import os
import shutil
import subprocess
import sys

import pytest
import requests

HERE = os.path.dirname(os.path.abspath(__file__))


def bwc_emu_command():
    """`bwc-emu` on PATH, else this repository's bin/bwc-emu (set BWC_EMU to choose)."""
    if os.environ.get("BWC_EMU"):
        return os.environ["BWC_EMU"].split()
    if shutil.which("bwc-emu"):
        return ["bwc-emu"]
    return ["node", os.path.join(HERE, "..", "..", "bin", "bwc-emu")]


@pytest.fixture(scope="session")
def emulator():
    """A running bwc-emu: its ready document (devices with URLs and logins, control URL)."""
    process = subprocess.Popen(
        bwc_emu_command() + ["--port", "0", "--scenario", "io-port", "--log-level", "warn"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = process.stdout.readline()  # exactly one documented line: "bwc-emu ready {json}"
        if not line.startswith("bwc-emu ready "):
            raise RuntimeError(f"bwc-emu did not start: {line!r} (exit {process.poll()})")
        yield json.loads(line[len("bwc-emu ready "):])
    finally:
        process.terminate()
        process.wait(timeout=5)


@pytest.fixture
def device(emulator, request):
    """The first device, freshly reset: flags, states, sessions, tokens, journal, scenario.
    The grading report keeps what the test before found, and names this test's part after it."""
    segment = {"segment": request.node.nodeid}
    requests.post(f"{emulator['control']}/reset", params=segment, timeout=5).raise_for_status()
    return emulator["devices"][0]


@pytest.fixture
def control(emulator):
    """Calls the control API: control('post', '/events', json={...})."""

    def call(method, path, **kwargs):
        answer = requests.request(method, f"{emulator['control']}{path}", timeout=5, **kwargs)
        answer.raise_for_status()
        return answer.json() if answer.content else None

    return call


sys.path.insert(0, HERE)
