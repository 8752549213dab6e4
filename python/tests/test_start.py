"""Starting and stopping the emulator process: the ready document, the command search, and
the errors that quote what went wrong."""
import os
import sys

import pytest

import bwc_emu
from bwc_emu import EmulatorStartError, find_command

NODE = "node"


def test_starts_reads_the_ready_document_and_closes():
    emu = bwc_emu.start()
    try:
        assert emu.process is not None and emu.process.running
        device = emu.device
        assert device.serial == "ACCC8E000001"
        assert device.urls.base.startswith("http://127.0.0.1:") and not device.urls.base.endswith(":0")
        assert device.urls.event_stream.startswith("ws://127.0.0.1:") and device.urls.event_stream.endswith("?sources=events")
        assert device.urls.session_token.endswith("/wssession.cgi")
        assert device.urls.by_name["featureFlags"] == device.urls.feature_flags
        assert (emu.user, emu.password) == ("root", "pass")
        assert emu.control_url == device.control == f"{emu.url}/_emu"
        assert emu.health() == {"status": "ready", "devices": 1}
    finally:
        emu.close()
    assert emu.closed and not emu.process.running
    emu.close()  # again: nothing happens


def test_is_a_context_manager():
    with bwc_emu.start(scenario="io-port") as emu:
        assert emu.scenario()["name"] == "io-port"
        process = emu.process
    assert process is not None and not process.running


def test_fleet_devices_and_routes():
    with bwc_emu.start(devices=2) as emu:
        first, second = emu.devices
        assert second.serial == "ACCC8E000002" and second.url != first.url
        emu.set_flags({"graphics_udvd": True}, device=second)
        assert emu.flag("graphics_udvd", device=second.serial) is True
        assert emu.flag("graphics_udvd") is False


def test_a_chosen_password_is_read_from_the_control_api():
    # the ready line leaves a password other than the default out
    with bwc_emu.start(args=["--password", "s3cret-Pw"]) as emu:
        assert emu.password == "s3cret-Pw"
        assert emu.device.session_token()


def test_auth_none_has_no_login():
    with bwc_emu.start(args=["--auth", "none"]) as emu:
        assert emu.user is None and emu.password is None
        assert emu.device.session_token()


def test_control_token_is_sent():
    with bwc_emu.start(control_token="tok-123") as emu:
        assert emu.flags()
        emu.control_token = "wrong"
        with pytest.raises(bwc_emu.ControlError) as refused:
            emu.flags()
        assert (refused.value.code, refused.value.status) == ("UNAUTHORIZED", 401)


def test_an_unknown_scenario_quotes_the_emulator():
    with pytest.raises(EmulatorStartError) as failed:
        bwc_emu.start(scenario="no-such-scenario-here")
    text = str(failed.value)
    assert "exited" in text and "no-such-scenario-here" in text
    assert failed.value.output and "--scenario" in failed.value.command


def test_a_command_that_exits_quotes_its_stderr_and_code():
    command = [NODE, "-e", "console.error('boom: no camera'); process.exit(3)", "--"]
    with pytest.raises(EmulatorStartError) as failed:
        bwc_emu.start(command=command)
    assert "code 3" in str(failed.value) and "boom: no camera" in str(failed.value)
    assert "the command given" in str(failed.value)


def test_no_ready_line_in_time_stops_the_process():
    command = [NODE, "-e", "console.log('hello'); setTimeout(() => {}, 60000)", "--"]
    with pytest.raises(EmulatorStartError) as failed:
        bwc_emu.start(command=command, timeout=1.5)
    assert "no ready line within 1.5 s" in str(failed.value) and "hello" in str(failed.value)


def test_a_missing_program_says_so():
    with pytest.raises(EmulatorStartError) as failed:
        bwc_emu.start(command="/nonexistent/bwc-emu")
    assert "/nonexistent/bwc-emu" in str(failed.value)


def test_find_command_order(tmp_path):
    fake = tmp_path / "bwc-emu"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    assert find_command("node x/bin/bwc-emu", {})[0] == ["node", "x/bin/bwc-emu"]
    assert find_command(None, {"BWC_EMU_COMMAND": "node y", "PATH": str(tmp_path)})[0] == ["node", "y"]
    assert find_command(None, {"PATH": str(tmp_path)})[0] == [str(fake)]
    npx = tmp_path / "npx-only"
    npx.mkdir()
    (npx / "npx").write_text("#!/bin/sh\n")
    (npx / "npx").chmod(0o755)
    assert find_command(None, {"PATH": str(npx)})[0] == [str(npx / "npx"), "--no-install", "bwc-emu"]


def test_find_command_names_every_place_tried(tmp_path):
    with pytest.raises(EmulatorStartError) as failed:
        find_command(None, {"PATH": str(tmp_path)})
    text = str(failed.value)
    assert "BWC_EMU_COMMAND" in text and "bwc-emu on PATH" in text and "npx" in text


@pytest.mark.skipif(sys.platform == "win32", reason="process groups")
def test_close_kills_what_ignores_sigterm():
    script = (
        "process.on('SIGTERM', () => {});"
        "console.log('bwc-emu ready ' + JSON.stringify({devices: [{serial: 'X', urls: {base: 'http://127.0.0.1:9'}, realm: 'R'}], control: null}));"
        "setInterval(() => {}, 1000);"
    )
    emu = bwc_emu.start(command=[NODE, "-e", script, "--"])
    assert emu.device.serial == "X" and emu.control_url is None
    with pytest.raises(bwc_emu.BwcEmuError):
        emu.flags()
    pid = emu.process.popen.pid
    emu.close(grace=0.5)
    assert not emu.process.running
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
