#!/usr/bin/python3
"""What a real client does, with Debian's python3-requests and python3-websockets.

discovery (apidiscovery.cgi getApiList, anonymous) -> basic device info
(basicdeviceinfo.cgi getAllProperties, digest) -> param.cgi Brand group (digest)
-> session token (wssession.cgi, digest) -> event stream (configure, wait for a
notification). Prints {"configured": true} once the configure is answered, then
one JSON summary line. Exits 0 on success, 2 on timeout, 1 on any other failure.

    python-requests-client.py BASE_URL USER PASSWORD TOPIC_FILTER
        [--cgi-prefix /axis-cgi] [--ws-prefix /vapix] [--timeout 5]
"""
import argparse
import asyncio
import json
import sys
import time
from urllib.parse import quote, urlsplit

import requests
from requests.auth import HTTPDigestAuth

try:  # websockets >= 11 has a threading client; Debian bookworm ships 10.4.
    from websockets.sync.client import connect as sync_connect
except ImportError:
    sync_connect = None
import websockets

API_ID = "event-streaming-over-websocket"


def emit(value):
    print(json.dumps(value, separators=(",", ":"), sort_keys=True), flush=True)


class Timeout(Exception):
    pass


class Client:
    def __init__(self, args):
        self.args = args
        self.http = requests.Session()
        self.digest = HTTPDigestAuth(args.user, args.password)
        self.deadline = time.monotonic() + args.timeout

    def remaining(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise Timeout()
        return left

    def cgi(self, name):
        return f"{self.args.base_url}{self.args.cgi_prefix}/{name}"

    def json_rpc(self, name, body, auth):
        answer = self.http.post(self.cgi(name), json=body, auth=auth, timeout=self.remaining())
        answer.raise_for_status()
        reply = answer.json()
        if "error" in reply:
            raise RuntimeError(f"{name} {body['method']}: error {reply['error']}")
        return reply

    def discover(self):
        reply = self.json_rpc("apidiscovery.cgi", {"apiVersion": "1.0", "context": "py", "method": "getApiList"}, auth=None)
        entry = next((api for api in reply["data"]["apiList"] if api["id"] == API_ID), None)
        if entry is None:
            raise RuntimeError(f"{API_ID} is not in the API list")
        return reply["data"]["apiList"], entry

    def device_info(self):
        body = {"apiVersion": "1.1", "context": "py", "method": "getAllProperties"}
        return self.json_rpc("basicdeviceinfo.cgi", body, auth=self.digest)["data"]["propertyList"]

    def brand(self):
        answer = self.http.get(self.cgi("param.cgi"), params={"action": "list", "group": "Brand"}, auth=self.digest, timeout=self.remaining())
        answer.raise_for_status()
        params = {}
        for line in answer.text.splitlines():
            if line.startswith("#") or "=" not in line:
                continue
            key, value = line.split("=", 1)
            params[key] = value
        return params

    def token(self):
        answer = self.http.get(self.cgi("wssession.cgi"), auth=self.digest, timeout=self.remaining())
        answer.raise_for_status()
        return answer.text.strip()

    def stream_url(self, token):
        parts = urlsplit(self.args.base_url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}{self.args.ws_prefix}/ws-data-stream?sources=events&wssession={quote(token)}"

    def configure_message(self):
        return json.dumps({
            "apiVersion": "1.0",
            "context": "py",
            "method": "events:configure",
            "params": {"eventFilterList": [{"topicFilter": self.args.topic_filter}]},
        })

    def handle(self, text, state):
        """Takes one stream message; True once a notification has arrived."""
        message = json.loads(text)
        if "error" in message:
            raise RuntimeError(f"stream error: {message['error']}")
        if message.get("method") == "events:configure":
            state["configure"] = message
            emit({"configured": True})
            return False
        if message.get("method") == "events:notify":
            state["notification"] = message["params"]["notification"]
            return True
        return False

    def stream_sync(self, url):
        state = {}
        with sync_connect(url, open_timeout=self.remaining()) as ws:
            ws.send(self.configure_message())
            while True:
                try:
                    text = ws.recv(timeout=self.remaining())
                except TimeoutError as error:
                    raise Timeout() from error
                if self.handle(text, state):
                    return state

    async def stream_async(self, url):
        state = {}
        async with websockets.connect(url, open_timeout=self.remaining()) as ws:
            await ws.send(self.configure_message())
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), self.remaining())
                except asyncio.TimeoutError as error:
                    raise Timeout() from error
                if self.handle(text, state):
                    return state

    def run(self):
        api_list, entry = self.discover()
        info = self.device_info()
        brand = self.brand()
        url = self.stream_url(self.token())
        if sync_connect is not None:
            client, state = "websockets.sync.client", self.stream_sync(url)
        else:
            client, state = "websockets asyncio", asyncio.run(self.stream_async(url))
        return {
            "apis": sorted(api["id"] for api in api_list),
            "discovery": entry,
            "serial": info.get("SerialNumber"),
            "model": info.get("ProdNbr"),
            "firmware": info.get("Version"),
            "brand": brand,
            "configure": state["configure"],
            "notification": state["notification"],
            "websocketClient": client,
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8080")
    parser.add_argument("user")
    parser.add_argument("password")
    parser.add_argument("topic_filter")
    parser.add_argument("--cgi-prefix", default="/axis-cgi")
    parser.add_argument("--ws-prefix", default="/vapix")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds before giving up")
    args = parser.parse_args()
    args.base_url = args.base_url.rstrip("/")
    try:
        emit({"summary": Client(args).run()})
    except Timeout:
        print(f"timed out after {args.timeout} s", file=sys.stderr, flush=True)
        sys.exit(2)
    except Exception as error:  # noqa: BLE001 - report any failure as exit 1
        print(f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
