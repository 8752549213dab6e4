#!/usr/bin/python3
"""The reference well-behaved client with ONE realistic mistake, chosen by --mistake NAME.

Each mistake below is the well-behaved client (examples/reference-clients/python) with one
behaviour changed the way client teams get it wrong; the grader must name each one
(test/integration/grading/mistake-matrix.test.ts). `--mistake none` is the correct client.

    mistake_client.py BASE_URL --mistake NAME [the well-behaved client's options]

It logs JSON lines as the well-behaved client does, plus the lines its mistake adds.
"""
import hashlib
import os
import sys
import threading
import time

import requests
from requests.auth import AuthBase, HTTPDigestAuth
from requests.utils import parse_dict_header

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../../../examples/reference-clients/python"))
from well_behaved_client import Backoff, Client, Log, argument_parser, parse_arguments, serve  # noqa: E402

# A flag of this device, and one of a newer firmware that this device does not have.
FLAG = "bwc_prerecord_extended"
NEWER_FIRMWARE_FLAG = "bwc_audio_prerecord"


class TokenFetchedEarly(Client):
    """Fetches the next connect's token ahead of time (at start-up, then as soon as a session
    is open) "so that a reconnect is quick"; after a session and a back-off it has expired."""

    def __init__(self, args, log):
        super().__init__(args, log)
        self.ahead = None

    def stream_loop(self):
        self.ahead = super().token()
        super().stream_loop()

    def token(self):
        token, self.ahead = self.ahead, None
        return token if token is not None else super().token()

    def on_open(self, ws):
        super().on_open(ws)
        self.ahead = super().token()


class TokenKept(Client):
    """Fetches one token and keeps it for every connect, reconnects included."""

    def __init__(self, args, log):
        super().__init__(args, log)
        self.kept = None

    def token(self):
        if self.kept is None:
            self.kept = super().token()
        return self.kept


class WrongPassword(Client):
    """Configured with the password typed with a capital letter."""

    def __init__(self, args, log):
        args.password = args.password.capitalize()
        super().__init__(args, log)


class LoginFailed(requests.RequestException):
    """A request with credentials answered 401: the team's digest takes it for a wrong password."""


class HandWrittenDigest(AuthBase):
    """Digest (MD5, qop=auth) as a team writes it: keeps the nonce with nc counting up, answers
    the first 401 of a request with its challenge, and takes a 401 to a request that carried
    credentials for a wrong password, `stale=true` or not."""

    def __init__(self, user, password, on_failure):
        self.user, self.password, self.on_failure = user, password, on_failure
        self.challenge = None
        self.nc = 0
        self.lock = threading.Lock()

    def __call__(self, request):
        if self.challenge is not None:
            request.headers["Authorization"] = self.header(request.method, request.path_url)
        request.register_hook("response", self.on_response)
        return request

    def on_response(self, response, **kwargs):
        if response.status_code != 401:
            return response
        if "Authorization" in response.request.headers:
            self.on_failure()
            raise LoginFailed("wrong user name or password", response=response)
        with self.lock:
            self.challenge = parse_dict_header(response.headers.get("www-authenticate", "")[len("Digest "):])
            self.nc = 0
        response.content  # read the 401 so that its connection can carry the retry
        response.close()
        retry = response.request.copy()
        retry.headers["Authorization"] = self.header(retry.method, retry.path_url)
        answer = response.connection.send(retry, **kwargs)
        answer.history.append(response)
        answer.request = retry
        return answer

    def header(self, method, uri):
        """The Authorization header for the kept challenge, with the next nc."""
        with self.lock:
            self.nc += 1
            nc, c = f"{self.nc:08x}", self.challenge
        cnonce = md5(f"{time.time()}{nc}")[:16]
        ha1 = md5(f"{self.user}:{c['realm']}:{self.password}")
        response = md5(f"{ha1}:{c['nonce']}:{nc}:{cnonce}:auth:{md5(f'{method}:{uri}')}")
        fields = {"username": self.user, "realm": c["realm"], "nonce": c["nonce"], "uri": uri, "qop": "auth",
                  "nc": nc, "cnonce": cnonce, "response": response, "algorithm": "MD5"}
        if "opaque" in c:
            fields["opaque"] = c["opaque"]
        return "Digest " + ", ".join(f'{k}={v}' if k in ("nc", "qop", "algorithm") else f'{k}="{v}"'
                                     for k, v in fields.items())


def md5(text):
    return hashlib.md5(text.encode()).hexdigest()


class StaleGivesUp(Client):
    """Hand-written digest: a `stale=true` 401 is reported as a failed login, and the client stops
    talking to the device (so as not to lock the account) instead of retrying with the new nonce."""

    def __init__(self, args, log):
        super().__init__(args, log)
        self.gave_up = threading.Event()
        self.http.auth = HandWrittenDigest(args.user, args.password, self.give_up)

    def give_up(self):
        if not self.gave_up.is_set():
            self.gave_up.set()
            self.log("login-failed", message="wrong user name or password; not trying again")

    def call(self, what, method, url, **kwargs):
        return None if self.gave_up.is_set() else super().call(what, method, url, **kwargs)


class NewDigestPerRequest(Client):
    """A new HTTPDigestAuth for every request, as `requests.post(url, auth=HTTPDigestAuth(...))`
    is written: no nonce is ever reused, every request pays a 401 first."""

    def call(self, what, method, url, **kwargs):
        auth = HTTPDigestAuth(self.args.user, self.args.password)
        return super().call(what, method, url, auth=auth, **kwargs)


class ReconnectTightLoop(Client):
    """Reconnects at once after every close or failure: no back-off."""

    def __init__(self, args, log):
        super().__init__(args, log)
        self.stream_backoff = Backoff(0, 0)


class NoReconnect(Client):
    """Connects once at start-up; when the device ends the session, the stream is over."""

    def stream_loop(self):
        self.connect_once()
        self.log("stream-over")


class NoPings(Client):
    """Gives run_forever() a ping_timeout but no ping_interval, believing that the timeout is the
    check: websocket-client then sends no pings of its own, and a silent stream goes unnoticed.
    The device's pings are still answered."""

    def __init__(self, args, log):
        args.ping_interval = 0
        super().__init__(args, log)


class ConfigureOnce(Client):
    """Configures the first session only, believing the device keeps the filters for a reconnect."""

    def __init__(self, args, log):
        super().__init__(args, log)
        self.configured_once = False

    def on_open(self, ws):
        if self.configured_once:
            self.log("open")
            return
        self.configured_once = True
        super().on_open(ws)


class TopicTwice(Client):
    """The I/O part of the app adds its own Port filter to the list, which already has it."""

    def event_filters(self):
        return super().event_filters() + [{"topicFilter": "tns1:Device/tnsvendor:IO/Port"}]


class TopicTypo(Client):
    """The motion topic written with a typo (`MotionAlarms`): accepted, and matches nothing."""

    def event_filters(self):
        return [{"topicFilter": f.replace("/MotionAlarm", "/MotionAlarms")} for f in self.args.topic]


class FilterWildcard(Client):
    """The Port topic written as a glob (`IO/*`), which the topic filter syntax does not have."""

    def event_filters(self):
        return [{"topicFilter": f.replace("IO/Port", "IO/*")} for f in self.args.topic]


class SessionLeak(Client):
    """"Renews" its subscription every poll interval with a new session, and never closes the old one."""

    def stream_loop(self):
        while not self.stop.is_set():
            threading.Thread(target=self.connect_once, daemon=True).start()
            self.stop.wait(self.args.poll_interval)


class SlowReader(Client):
    """Stores each event (a 20 ms database write) on the socket's own thread before reading on."""

    def on_message(self, ws, text):
        time.sleep(0.02)
        super().on_message(ws, text)


class ApiVersion2(Client):
    """Asks for API version 2.0, which the device does not have."""

    api_version = "2.0"


class TokenPerCall(Client):
    """Fetches a session token before every CGI call, believing that the call needs one; it never uses it."""

    def rpc(self, what, cgi, method, params=None):
        self.token()
        return super().rpc(what, cgi, method, params)


class Poll50ms(Client):
    """Polls listAll every 50 ms to see flag changes "at once": on a fixed schedule, as a timer
    does, so that a device slow to answer (a loaded machine) gets the polls as often, not fewer."""

    def __init__(self, args, log):
        args.poll_interval = 0.05
        super().__init__(args, log)

    def poll_loop(self):
        due = time.monotonic()
        while True:
            due += self.args.poll_interval
            if self.stop.wait(max(0.0, due - time.monotonic())):
                return
            self.rpc("listAll", "featureflag.cgi", "listAll")


class FlagString(Client):
    """Turns a flag on at start-up with the value read from its config file as text: "true"."""

    def poll_loop(self):
        self.rpc("set-flag", "featureflag.cgi", "set", {"flagValues": {FLAG: "true"}})
        super().poll_loop()


class Configure110KiB(Client):
    """Subscribes to each of 888 ports with a filter of its own: a 110 KiB configure."""

    def event_filters(self):
        content = 'boolean(//SimpleItem[@Name="port" and @Value="{}"])'
        return [{"topicFilter": "tns1:Device/tnsvendor:IO/Port", "contentFilter": content.format(port)}
                for port in range(1, 889)]


class RefusedResent(Client):
    """Turns on a flag of a newer firmware, and sends the same request again every poll interval
    until the device accepts it (which this device never does)."""

    def poll_loop(self):
        threading.Thread(target=self.enable_until_accepted, daemon=True).start()
        super().poll_loop()

    def enable_until_accepted(self):
        params = {"flagValues": {NEWER_FIRMWARE_FLAG: True}}
        while self.rpc("enable", "featureflag.cgi", "set", params) is None:
            if self.stop.wait(self.args.poll_interval):
                return


MISTAKES = {
    "none": Client,
    "token-fetched-early": TokenFetchedEarly,
    "token-kept": TokenKept,
    "wrong-password": WrongPassword,
    "stale-gives-up": StaleGivesUp,
    "new-digest-per-request": NewDigestPerRequest,
    "reconnect-tight-loop": ReconnectTightLoop,
    "no-reconnect": NoReconnect,
    "no-pings": NoPings,
    "configure-once": ConfigureOnce,
    "topic-twice": TopicTwice,
    "topic-typo": TopicTypo,
    "filter-wildcard": FilterWildcard,
    "session-leak": SessionLeak,
    "slow-reader": SlowReader,
    "api-version-2": ApiVersion2,
    "token-per-call": TokenPerCall,
    "poll-50ms": Poll50ms,
    "flag-string": FlagString,
    "configure-110kib": Configure110KiB,
    "refused-resent": RefusedResent,
}


def main():
    parser = argument_parser()
    parser.add_argument("--mistake", required=True, choices=sorted(MISTAKES), help="the one mistake to make")
    args = parse_arguments(parser)
    serve(MISTAKES[args.mistake](args, Log()))


if __name__ == "__main__":
    main()
