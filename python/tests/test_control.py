"""The control API through the handle, on the plugin's `bwc_emu` fixture (one emulator for
the run, reset before each test)."""
import json

import pytest
import websocket

from bwc_emu import ControlError, Emulator
from ws_client import notifications, subscribe

MOTION = "tns1:VideoSource/MotionAlarm"
MOTION_SOURCE = {"VideoSourceConfigurationToken": "1"}


def test_publish_reaches_a_subscribed_client(bwc_emu: Emulator):
    ws = subscribe(bwc_emu.device, MOTION)
    try:
        published = bwc_emu.publish(MOTION, source=MOTION_SOURCE, data={"State": "1"}, timestamp=None)
        assert published[0]["topic"] == MOTION and published[0]["timestamp"] is None
        (notification,) = notifications(ws, 1)
        assert notification["topic"] == MOTION and notification["message"]["data"] == {"State": "1"}
    finally:
        ws.close()


def test_set_state_sends_the_state(bwc_emu: Emulator):
    port = "tns1:Device/tnsvendor:IO/Port"
    ws = subscribe(bwc_emu.device, port)
    try:
        bwc_emu.set_state(port, {"state": "1"}, source={"port": "1"})
        while True:  # the scenario's own IO port events may come first
            (n,) = notifications(ws, 1)
            if n["message"]["source"] == {"port": "1"} and n["message"]["data"].get("state") == "1":
                break
    finally:
        ws.close()


def test_sessions_and_closing_them(bwc_emu: Emulator):
    ws = subscribe(bwc_emu.device, MOTION)
    try:
        (session,) = [s for s in bwc_emu.sessions() if "via" not in s]
        assert session["state"] == "CONFIGURED" and session["filters"] == [{"topicFilter": MOTION}]
        assert bwc_emu.close_sessions(code=1001, reason="bye") >= 1
        with pytest.raises(websocket.WebSocketConnectionClosedException):
            while True:
                ws.recv()
    finally:
        ws.close()


def test_flags_set_and_refused(bwc_emu: Emulator):
    names = [f["name"] for f in bwc_emu.flags()]
    assert "graphics_udvd" in names
    after = bwc_emu.set_flags(graphics_udvd=True)
    assert [f["value"] for f in after if f["name"] == "graphics_udvd"] == [True]
    with pytest.raises(ControlError) as refused:
        bwc_emu.set_flags({"no_such_flag": True, "graphics_udvd": False})
    assert (refused.value.code, refused.value.status) == ("FLAG_NOT_FOUND", 400)
    assert bwc_emu.flag("graphics_udvd") is True  # all or nothing


def test_reset_between_tests_put_flags_back(bwc_emu: Emulator):
    # runs after test_flags_set_and_refused: the fixture's reset restored the default
    assert bwc_emu.flag("graphics_udvd") is False


def test_journal_since_and_kind(bwc_emu: Emulator):
    start = bwc_emu.journal_seq()
    ws = subscribe(bwc_emu.device, MOTION)
    ws.close()
    journal = bwc_emu.journal(since=start, kind=["ws-open", "configure"])
    assert [e["kind"] for e in journal] == ["ws-open", "configure"]
    assert journal.last_seq > start and journal.dropped == 0
    assert len(bwc_emu.journal(since=journal.last_seq, kind="ws-open")) == 0
    with pytest.raises(ControlError) as refused:
        bwc_emu.journal(kind="no-such-kind")
    assert refused.value.code == "BAD_REQUEST" and "query.kind" in refused.value.message


def test_report_finds_a_reused_token(bwc_emu: Emulator):
    device = bwc_emu.device
    token = device.session_token()
    websocket.create_connection(device.event_stream_url(token), timeout=5).close()
    with pytest.raises(websocket.WebSocketBadStatusException):
        websocket.create_connection(device.event_stream_url(token), timeout=5)
    report = bwc_emu.report(segments="current")
    assert [f.rule for f in report.errors] == ["token-reused"] and not report
    finding = report.errors[0]
    assert finding.segment_name.endswith("test_report_finds_a_reused_token")
    assert finding.fix and finding.evidence and "token-reused" in report.text()
    only = bwc_emu.report(segments="current", skip_rules=["token-reused"])
    assert not only.errors and "token-reused" not in only.rules
    assert bwc_emu.report(rules="token-reused", thresholds={"reconnectWithinMs": 5000}).thresholds["reconnectWithinMs"] == 5000


def test_report_refuses_an_unknown_rule(bwc_emu: Emulator):
    with pytest.raises(ControlError) as refused:
        bwc_emu.report(rules=["no-such-rule"])
    assert refused.value.code == "BAD_OPTION" and "no-such-rule" in refused.value.message


def test_a_clean_segment_has_an_empty_report(bwc_emu: Emulator):
    report = bwc_emu.report(segments="current")
    assert report and report.findings == [] and report.summary["errors"] == 0
    assert report.segments[-1]["name"].endswith("test_a_clean_segment_has_an_empty_report")


def test_faults_on_list_off(bwc_emu: Emulator):
    (on,) = bwc_emu.fault_on("stall", pings=False, forMs=30000)
    assert on["name"] == "stall" and on["params"]["pings"] is False and on["until"] is not None
    assert [f["name"] for f in bwc_emu.faults()] == ["stall"]
    assert bwc_emu.fault_off("stall") == ["stall"]
    assert bwc_emu.faults() == []
    assert "reboot" in [s["name"] for s in bwc_emu.fault_switches()]


def test_a_bad_fault_is_refused(bwc_emu: Emulator):
    with pytest.raises(ControlError) as refused:
        bwc_emu.fault_on("no-such-fault")
    assert refused.value.status == 400 and "body.name" in refused.value.message
    with pytest.raises(ControlError) as refused:
        bwc_emu.fault_on("stall", forMs=-1)
    assert refused.value.status == 400 and "forMs" in refused.value.message


def test_answer_overrides_made_listed_refused_cleared(bwc_emu: Emulator):
    (made,) = bwc_emu.override("featureflag.cgi", {"status": 500}, method="listAll", times=2)
    assert made["id"] == "o1" and made["answered"] == 0 and made["times"] == 2
    assert [o["id"] for o in bwc_emu.overrides()] == ["o1"]
    with pytest.raises(ControlError) as refused:
        bwc_emu.override("featureflag.cgi", {"status": 500}, method="listEverything")
    assert refused.value.status == 400 and "listAll" in refused.value.message
    assert bwc_emu.clear_overrides("o1") == ["o1"]
    assert bwc_emu.overrides() == []


def test_reboot_answers_once_the_device_is_back(bwc_emu: Emulator):
    bwc_emu.fault_on("reboot", downMs=300)
    assert bwc_emu.health()["status"] == "ready"


def test_scenario_control_and_a_bad_scenario(bwc_emu: Emulator):
    bwc_emu.pause_scenario()
    assert bwc_emu.scenario()["state"] == "paused"
    bwc_emu.play_scenario()
    assert bwc_emu.scenario()["state"] == "playing"
    with pytest.raises(ControlError) as refused:
        bwc_emu.load_scenario("name: broken\ntimeline: 12\n", name="broken.yaml")
    assert refused.value.code == "BAD_SCENARIO" and refused.value.errors
    assert refused.value.errors[0]["text"].startswith("broken.yaml:")


def test_an_unknown_serial_is_refused(bwc_emu: Emulator):
    with pytest.raises(ControlError) as refused:
        bwc_emu.flags(device="NOSUCHSERIAL")
    assert (refused.value.code, refused.value.status) == ("NO_SUCH_DEVICE", 404)


def test_request_reaches_any_route(bwc_emu: Emulator):
    document = bwc_emu.request("GET", "/openapi.json")
    assert document["openapi"].startswith("3.1") and json.dumps(document)
