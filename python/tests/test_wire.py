"""The wait client against a stand-in server answering the wait routes' contract (what the
emulator's routes answer), so the Python side is checked on its own: the query it sends, ms on
the wire, a socket that waits longer than the emulator, 408 as WaitTimeout."""
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from bwc_emu import ControlError, Emulator, WaitTimeout
from bwc_emu.ready import ReadyDocument, parse_device


class Contract(BaseHTTPRequestHandler):
    """Answers /_emu/wait/... as the contract has it, after holding the request `timeout` ms
    when it times out; records each request."""

    seen: list = []

    def do_GET(self):  # noqa: N802 (http.server's name)
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        Contract.seen.append((url.path, query))
        if query.get("topic") == "never":
            time.sleep(int(query["timeout"]) / 1000)
            self._answer(408, {"error": {"code": "TIMEOUT", "message": "no session configured for never; seen: 1 session (OPEN)"}})
        elif url.path.endswith("/wait/session"):
            self._answer(200, {"session": {"id": "s1", "state": "CONFIGURED"}})
        elif url.path.endswith("/wait/entry") and query.get("kind") == "bad":
            self._answer(400, {"error": {"code": "BAD_REQUEST", "message": "query.kind: bad"}})
        else:
            self._answer(200, {"entry": {"seq": int(query.get("since", "0")) + 1, "kind": query.get("kind", "notification")}})

    def _answer(self, status, body):
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture
def stand_in():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Contract)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    device = parse_device({"serial": "S1", "urls": {"base": base}, "user": None, "password": None, "realm": "R", "control": base + "/_emu"})
    Contract.seen = []
    emulator = Emulator(None, ReadyDocument([device], base + "/_emu", {}), http_timeout=0.2)
    yield emulator
    server.shutdown()
    server.server_close()


def test_waits_send_the_contract_query(stand_in: Emulator):
    assert stand_in.wait_for_session(topic="tns1:X", timeout=2)["id"] == "s1"
    assert stand_in.wait_for_notification(topic="tns1:X", since=41, timeout=0.25)["seq"] == 42
    assert stand_in.wait_for_entry("ws-close", timeout=1.5)["kind"] == "ws-close"
    assert Contract.seen == [
        ("/_emu/wait/session", {"topic": "tns1:X", "timeout": "2000"}),
        ("/_emu/wait/notification", {"topic": "tns1:X", "since": "41", "timeout": "250"}),
        ("/_emu/wait/entry", {"kind": "ws-close", "timeout": "1500"}),
    ]


def test_fleet_waits_use_the_device_route(stand_in: Emulator):
    stand_in.wait_for_entry("fault", since=3, device="ACCC8E000002")
    assert Contract.seen == [("/_emu/devices/ACCC8E000002/wait/entry", {"kind": "fault", "since": "3", "timeout": "5000"})]


def test_the_socket_outwaits_the_emulator_and_408_is_a_wait_timeout(stand_in: Emulator):
    # http_timeout is 0.2 s, the wait 0.6 s: the socket must not give up first
    with pytest.raises(WaitTimeout) as timed_out:
        stand_in.wait_for_session(topic="never", timeout=0.6)
    error = timed_out.value
    assert isinstance(error, TimeoutError) and isinstance(error, ControlError)
    assert (error.code, error.status) == ("TIMEOUT", 408) and "seen: 1 session" in error.message


def test_other_refusals_are_control_errors(stand_in: Emulator):
    with pytest.raises(ControlError) as refused:
        stand_in.wait_for_entry("bad")
    assert not isinstance(refused.value, WaitTimeout) and refused.value.code == "BAD_REQUEST"


def test_no_answer_is_a_control_error():
    device = parse_device({"serial": "S1", "urls": {"base": "http://127.0.0.1:9"}, "user": None, "password": None, "realm": "R", "control": "http://127.0.0.1:9/_emu"})
    emulator = Emulator(None, ReadyDocument([device], "http://127.0.0.1:9/_emu", {}))
    with pytest.raises(ControlError) as refused:
        emulator.flags()
    assert (refused.value.code, refused.value.status) == ("NO_ANSWER", 0)
