"""Waits over HTTP (GET /_emu/wait/session, /wait/notification, /wait/entry): long polls that
answer what they waited for, or 408 TIMEOUT saying what was seen."""
import threading
import time

import pytest

import bwc_emu
from bwc_emu import ControlError, Emulator, WaitTimeout
from ws_client import notifications, subscribe

MOTION = "tns1:VideoSource/MotionAlarm"
PORT = "tns1:Device/tnsvendor:IO/Port"


class Later:
    """Runs ``action`` on another thread after ``seconds`` (a client app doing its thing); as a
    context manager, joins it and closes the socket it opened."""

    def __init__(self, seconds, action):
        self.result = None
        self.thread = threading.Thread(target=self._run, args=(seconds, action), daemon=True)
        self.thread.start()

    def _run(self, seconds, action):
        time.sleep(seconds)
        try:
            self.result = action()
        except Exception as error:  # the test reports what it waited for; this is the cause
            self.result = error

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.thread.join(5)
        if hasattr(self.result, "close"):
            self.result.close()


def test_wait_for_session_answers_once_a_client_subscribes(bwc_emu: Emulator):
    with Later(0.3, lambda: subscribe(bwc_emu.device, MOTION)):
        session = bwc_emu.wait_for_session(topic=MOTION, timeout=5)
        assert session["state"] == "CONFIGURED" and session["filters"] == [{"topicFilter": MOTION}]
        assert session["id"] in [s["id"] for s in bwc_emu.sessions()]


def test_wait_for_session_with_a_topic_ignores_other_subscriptions(bwc_emu: Emulator):
    ws = subscribe(bwc_emu.device, PORT)
    try:
        with pytest.raises(WaitTimeout) as timed_out:
            bwc_emu.wait_for_session(topic=MOTION, timeout=0.5)
        assert timed_out.value.status == 408 and timed_out.value.code == "TIMEOUT"
    finally:
        ws.close()


def test_a_wait_timeout_is_a_timeout_error_saying_what_was_seen(bwc_emu: Emulator):
    started = time.monotonic()
    with pytest.raises(TimeoutError) as timed_out:
        bwc_emu.wait_for_session(timeout=0.4)
    assert 0.3 <= time.monotonic() - started < 5
    assert isinstance(timed_out.value, ControlError) and timed_out.value.message


def test_wait_for_notification_after_a_seq(bwc_emu: Emulator):
    ws = subscribe(bwc_emu.device, MOTION)
    try:
        since = bwc_emu.journal_seq()
        bwc_emu.publish(MOTION, source={"VideoSourceConfigurationToken": "1"}, data={"State": "1"})
        entry = bwc_emu.wait_for_notification(topic=MOTION, since=since, timeout=5)
        assert entry["kind"] == "notification" and entry["seq"] > since
        assert notifications(ws, 1)[0]["topic"] == MOTION
    finally:
        ws.close()


def test_wait_for_notification_times_out_without_one(bwc_emu: Emulator):
    with pytest.raises(WaitTimeout):
        bwc_emu.wait_for_notification(topic=MOTION, since=bwc_emu.journal_seq(), timeout=0.5)


def test_wait_for_entry_of_a_kind(bwc_emu: Emulator):
    since = bwc_emu.journal_seq()
    ws = subscribe(bwc_emu.device, MOTION)
    ws.close()
    entry = bwc_emu.wait_for_entry("ws-close", since=since, timeout=5)
    assert entry["kind"] == "ws-close" and entry["seq"] > since


def test_a_bad_wait_is_refused_not_timed_out(bwc_emu: Emulator):
    with pytest.raises(ControlError) as refused:
        bwc_emu.wait_for_entry("no-such-kind", timeout=0.5)
    assert refused.value.status == 400 and not isinstance(refused.value, WaitTimeout)


def test_waits_on_a_fleet_device():
    with bwc_emu.start(devices=2) as emu:
        second = emu.devices[1]
        with Later(0.2, lambda: subscribe(second, MOTION)):
            session = emu.wait_for_session(topic=MOTION, timeout=5, device=second)
            assert session["device"] == second.serial
            since = emu.journal_seq(device=second)
            emu.publish(MOTION, source={"VideoSourceConfigurationToken": "1"}, data={"State": "1"}, device=second)
            assert emu.wait_for_notification(topic=MOTION, since=since, device=second)["kind"] == "notification"
