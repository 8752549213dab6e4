"""The Python client app tested against bwc-emu with the bwc_emu fixture of its Python package
(pip install node_modules/bwc-emu/python): no glue code. The fixture starts the emulator once,
resets it before each test and stops it at the end; a failed test gets the grading report."""
from concurrent.futures import ThreadPoolExecutor

import requests

from motion_client import MOTION, MotionClient

CAMERA_1 = {"VideoSourceConfigurationToken": "1"}


def client_of(device):
    """The app configured for the emulated camera."""
    return MotionClient(device.urls.session_token, device.urls.event_stream, device.user, device.password)


def test_reports_motion_starting_and_stopping(bwc_emu):
    with ThreadPoolExecutor() as app:
        states = app.submit(client_of(bwc_emu.device).collect_motion, 2)
        bwc_emu.wait_for_session(topic=MOTION, timeout=10)  # the app subscribed (a long poll over HTTP)
        bwc_emu.publish(MOTION, source=CAMERA_1, data={"State": "1"})
        bwc_emu.publish(MOTION, source=CAMERA_1, data={"State": "0"})
        assert states.result(timeout=10) == [True, False]
    report = bwc_emu.report(segments="current")  # what a device would hold against the app
    assert not report.errors, report.text()


def test_subscribes_to_motion_only_with_one_token(bwc_emu):
    with ThreadPoolExecutor() as app:
        states = app.submit(client_of(bwc_emu.device).collect_motion, 1)
        since = bwc_emu.journal_seq()
        bwc_emu.wait_for_session(topic=MOTION, timeout=10)
        bwc_emu.publish(MOTION, source=CAMERA_1, data={"State": "1"})
        assert bwc_emu.wait_for_notification(topic=MOTION, since=since)["topic"] == MOTION
        states.result(timeout=10)
    assert [entry["filters"] for entry in bwc_emu.journal(kind="configure")] == [[{"topicFilter": MOTION}]]
    requests_made = bwc_emu.journal(kind="http")
    assert [(entry["status"], entry.get("auth")) for entry in requests_made] == [(401, None), (200, "digest")]


def test_feature_flags_set_through_the_control_api_are_what_the_device_serves(bwc_emu):
    flag = bwc_emu.flags()[0]
    bwc_emu.set_flags({flag["name"]: not flag["value"]})
    answer = requests.post(
        bwc_emu.device.urls.feature_flags,
        json={"apiVersion": "1.0", "method": "get", "params": {"names": [flag["name"]]}},
        auth=requests.auth.HTTPDigestAuth(bwc_emu.user, bwc_emu.password),
        timeout=5,
    )
    assert answer.json()["data"]["flagValues"][flag["name"]] is (not flag["value"])


def test_each_test_starts_from_a_reset_device(bwc_emu):
    assert len(bwc_emu.journal()) == 0 and bwc_emu.sessions() == []
