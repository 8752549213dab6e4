#!/usr/bin/python3
"""A well-behaved event stream client, written as client teams write one.

Libraries with their default behaviour: requests (one Session, HTTPDigestAuth: the nonce
is reused with nc counting up, a 401 is answered once with the new challenge) and
websocket-client (`import websocket`: answers pings, sends its own with
ping_interval/ping_timeout). What makes it well-behaved (see ../README.md):

- a session token from wssession.cgi right before every connect, used once;
- `events:configure` (apiVersion 1.0, a context, one filter per topic) on every session;
- its own pings every --ping-interval s, a reconnect when no pong comes within --pong-timeout s;
- a reconnect after any close or error, after a back-off from --backoff-start s doubling to
  --backoff-cap s, reset once a session worked;
- featureflag.cgi listAll every --poll-interval s; a 503 or a timeout is "busy": the next
  try comes later, with back-off;
- an event stream answering 404 (firmware without WebSocket events): basicdeviceinfo.cgi
  is polled instead, and the stream is tried again with back-off.

It logs what it does as JSON lines on stdout (never a token or a password) and exits 0
after --duration s or on SIGTERM.

    well_behaved_client.py BASE_URL [--user root] [--password pass] [--topic T ...]
        [--duration 60] [--backoff-start 2] [--backoff-cap 30] [--ping-interval 10]
        [--pong-timeout 5] [--poll-interval 10] [--http-timeout 10] [--ca-file PEM]
"""
import argparse
import json
import signal
import sys
import threading
import time
from urllib.parse import quote, urlsplit

import requests
from requests.auth import HTTPDigestAuth
import websocket

# The topics of bwc-emu's default scenario, one filter each.
DEFAULT_TOPICS = [
    "tns1:Device/tnsvendor:Status/SystemReady",
    "tns1:Device/tnsvendor:IO/Port",
    "tns1:VideoSource/MotionAlarm",
]
CONTEXT = "well-behaved-python"


class Log:
    """JSON lines on stdout, one per thing the client did; safe from several threads."""

    def __init__(self):
        self.start = time.monotonic()
        self.lock = threading.Lock()

    def __call__(self, event, **fields):
        line = {"t": round(time.monotonic() - self.start, 3), "client": "python", "event": event, **fields}
        with self.lock:
            print(json.dumps(line, separators=(",", ":")), flush=True)


class Backoff:
    """Waits that start at `start` s and double up to `cap` s; reset() starts over."""

    def __init__(self, start, cap):
        self.start, self.cap, self.current = start, cap, start

    def next(self):
        wait = self.current
        self.current = min(self.current * 2, self.cap)
        return wait

    def reset(self):
        self.current = self.start


class Client:
    # The JSON-RPC API version of every request (the device's list: getSupportedVersions).
    api_version = "1.0"

    def __init__(self, args, log):
        self.args = args
        self.log = log
        parts = urlsplit(args.base_url)
        self.ws_base = f"{'wss' if parts.scheme == 'https' else 'ws'}://{parts.netloc}"
        # One Session for every request: its connection pool, and one HTTPDigestAuth whose
        # nonce (kept per thread) is reused with nc counting up.
        self.http = requests.Session()
        self.http.auth = HTTPDigestAuth(args.user, args.password)
        # Given per request: a Session's `verify` loses to REQUESTS_CA_BUNDLE in the environment.
        self.verify = args.ca_file or True
        self.sslopt = {"ca_certs": args.ca_file} if args.ca_file else {}
        self.stop = threading.Event()
        self.fallback = threading.Event()
        self.stream_backoff = Backoff(args.backoff_start, args.backoff_cap)
        self.poll_backoff = Backoff(args.poll_interval, max(args.poll_interval, args.backoff_cap))
        self.app = None
        self.configured = False
        self.terminated = False

    # --- HTTP ---------------------------------------------------------------------------

    def cgi(self, name):
        return f"{self.args.base_url}{self.args.cgi_prefix}/{name}"

    def call(self, what, method, url, **kwargs):
        """The answer when it is 200; None (logged) when busy, refused or failed."""
        started = time.monotonic()
        try:
            answer = self.http.request(method, url, timeout=self.args.http_timeout, verify=self.verify, **kwargs)
        except requests.Timeout:
            self.log("busy", what=what, reason="timeout")
            return None
        except requests.RequestException as error:
            self.log("error", what=what, type=type(error).__name__, message=str(error)[:200])
            return None
        ms = round((time.monotonic() - started) * 1000)
        if answer.status_code == 503:
            self.log("busy", what=what, status=503, ms=ms)
            return None
        if answer.status_code != 200:
            self.log("http-error", what=what, status=answer.status_code, ms=ms)
            return None
        return answer

    def rpc(self, what, cgi, method, params=None):
        """A JSON-RPC call; its `data`, or None (logged)."""
        body = {"apiVersion": self.api_version, "context": CONTEXT, "method": method}
        if params is not None:
            body["params"] = params
        started = time.monotonic()
        answer = self.call(what, "POST", self.cgi(cgi), json=body)
        if answer is None:
            return None
        ms = round((time.monotonic() - started) * 1000)
        reply = answer.json()
        if "error" in reply:
            self.log("rpc-error", what=what, code=reply["error"].get("code"), ms=ms)
            return None
        self.log("poll", what=what, status=200, ms=ms)
        return reply.get("data")

    def token(self):
        """A fresh session token, fetched now for the connect that follows at once."""
        answer = self.call("token", "GET", self.cgi("wssession.cgi"))
        if answer is None:
            return None
        self.log("token", status=200)
        return answer.text.strip()

    def poll_loop(self):
        """listAll at a modest rate (and the fallback poll while the stream is missing)."""
        wait = self.args.poll_interval
        while not self.stop.wait(wait):
            ok = self.rpc("listAll", "featureflag.cgi", "listAll") is not None
            if ok and self.fallback.is_set():
                ok = self.rpc("fallback", "basicdeviceinfo.cgi", "getAllProperties") is not None
            if ok:
                self.poll_backoff.reset()
                wait = self.args.poll_interval
            else:
                wait = self.poll_backoff.next()
                self.log("backoff", what="poll", ms=round(wait * 1000))

    # --- event stream -------------------------------------------------------------------

    def stream_loop(self):
        while not self.stop.is_set():
            if self.connect_once():
                self.stream_backoff.reset()
            if self.stop.is_set():
                break
            wait = self.stream_backoff.next()
            self.log("backoff", what="stream", ms=round(wait * 1000))
            self.stop.wait(wait)

    def connect_once(self):
        """One session, from a fresh token to its close; True when it was configured."""
        token = self.token()
        if token is None or self.stop.is_set():
            return False
        path = f"{self.args.ws_prefix}/ws-data-stream?sources=events"
        self.configured = False
        self.app = websocket.WebSocketApp(
            f"{self.ws_base}{path}&wssession={quote(token)}",
            on_open=self.on_open,
            on_message=self.on_message,
            on_error=self.on_error,
            on_close=self.on_close,
        )
        self.log("connect", path=path)
        self.app.run_forever(
            ping_interval=self.args.ping_interval, ping_timeout=self.args.pong_timeout, sslopt=self.sslopt
        )
        self.app = None
        return self.configured

    def on_open(self, ws):
        self.log("open")
        if self.fallback.is_set():
            self.fallback.clear()
            self.log("fallback-end")
        filters = self.event_filters()
        ws.send(json.dumps({
            "apiVersion": self.api_version,
            "context": CONTEXT,
            "method": "events:configure",
            "params": {"eventFilterList": filters},
        }))
        self.log("configure", filters=len(filters))

    def event_filters(self):
        """One filter per topic of --topic."""
        return [{"topicFilter": topic} for topic in self.args.topic]

    def on_message(self, ws, text):
        message = json.loads(text)
        if message.get("method") == "events:notify":
            notification = message["params"]["notification"]
            self.log("notification", topic=notification["topic"], timestamp=notification.get("timestamp"))
        elif message.get("method") == "events:configure":
            if "error" in message:
                self.log("configure-error", code=message["error"].get("code"), message=message["error"].get("message"))
            else:
                self.configured = True
                self.log("configured")
        elif "error" in message:
            self.log("stream-error", code=message["error"].get("code"), message=message["error"].get("message"))

    def on_error(self, ws, error):
        if isinstance(error, websocket.WebSocketTimeoutException):
            self.log("ping-timeout", message=str(error))
            return
        status = getattr(error, "status_code", None)
        if status == 404 and not self.fallback.is_set():
            self.fallback.set()
            self.log("fallback", status=404)
        self.log("error", what="stream", type=type(error).__name__, status=status, message=str(error)[:200])

    def on_close(self, ws, code, reason):
        self.log("close", code=code, reason=reason)

    # --- life -----------------------------------------------------------------------------

    def run(self):
        self.log("start", base=self.args.base_url, topics=self.args.topic)
        threads = [threading.Thread(target=loop, daemon=True) for loop in (self.stream_loop, self.poll_loop)]
        for thread in threads:
            thread.start()
        # The SIGTERM handler only sets a flag: taking a lock in a signal handler can deadlock.
        deadline = time.monotonic() + self.args.duration
        while not self.terminated and time.monotonic() < deadline:
            time.sleep(0.05)
        self.stop.set()
        app = self.app
        if app is not None:
            app.close()  # a close frame, then up to 3 s for the device's answer (websocket-client's default)
        for thread in threads:
            thread.join(timeout=max(0.1, self.args.http_timeout))
        self.log("stop", reason="SIGTERM" if self.terminated else "duration")


def argument_parser():
    """The options (a client built on this one adds its own)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8080")
    parser.add_argument("--user", default="root")
    parser.add_argument("--password", default="pass")
    parser.add_argument("--cgi-prefix", default="/svc-cgi")
    parser.add_argument("--ws-prefix", default="/svc")
    parser.add_argument("--topic", action="append", help="a topic to subscribe to (repeat); default: the default scenario's")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds to run (SIGTERM ends it sooner)")
    parser.add_argument("--backoff-start", type=float, default=2.0)
    parser.add_argument("--backoff-cap", type=float, default=30.0)
    parser.add_argument("--ping-interval", type=float, default=10.0)
    parser.add_argument("--pong-timeout", type=float, default=5.0)
    parser.add_argument("--poll-interval", type=float, default=10.0)
    parser.add_argument("--http-timeout", type=float, default=10.0)
    parser.add_argument("--ca-file", help="PEM certificate to trust (HTTPS devices)")
    return parser


def parse_arguments(parser):
    """The command line's options, checked (exits 2 with a message on a bad one)."""
    args = parser.parse_args()
    args.base_url = args.base_url.rstrip("/")
    args.topic = args.topic or DEFAULT_TOPICS
    timings = ("duration", "backoff_start", "backoff_cap", "ping_interval", "pong_timeout", "poll_interval", "http_timeout")
    for name in timings:
        if not getattr(args, name) > 0:
            parser.error(f"--{name.replace('_', '-')} must be a number of seconds above 0")
    if args.pong_timeout >= args.ping_interval:
        parser.error("--pong-timeout must be shorter than --ping-interval")
    return args


def serve(client):
    """Runs `client` until its --duration is over or SIGTERM comes, then exits 0."""
    signal.signal(signal.SIGTERM, lambda *_: setattr(client, "terminated", True))
    client.run()
    sys.exit(0)


def main():
    serve(Client(parse_arguments(argument_parser()), Log()))


if __name__ == "__main__":
    main()
