#!/usr/bin/python3
"""A scripted event stream client written with Debian's python3-websockets.

Gets a session token from wssession.cgi with digest auth (requests'
HTTPDigestAuth, which does MD5 and SHA-256), opens the WebSocket data stream,
sends events:configure and prints one JSON line per message received (the
configure answer and the notifications). Exits 0 after --count notifications,
2 after --timeout seconds, 1 on any other failure.

    python-websockets-client.py BASE_URL USER PASSWORD TOPIC_FILTER [TOPIC_FILTER...]
        [--ws-prefix /svc] [--cgi-prefix /svc-cgi] [--count 1] [--timeout 5]
        [--reuse-token]

With --reuse-token it instead opens the stream twice with the same token and
prints one line per handshake: {"handshake": N, "status": HTTP_STATUS}.
"""
import argparse
import asyncio
import json
import sys
from urllib.parse import quote, urlsplit

import requests
from requests.auth import HTTPDigestAuth
import websockets
import websockets.exceptions


def emit(value):
    print(json.dumps(value, separators=(",", ":"), sort_keys=True), flush=True)


def get_token(args):
    answer = requests.get(
        f"{args.base_url}{args.cgi_prefix}/wssession.cgi",
        auth=HTTPDigestAuth(args.user, args.password),
        timeout=args.timeout,
    )
    if answer.status_code != 200:
        raise SystemExit(f"wssession.cgi answered HTTP {answer.status_code}: {answer.text!r}")
    return answer.text.strip()


def stream_url(args, token):
    parts = urlsplit(args.base_url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}{args.ws_prefix}/ws-data-stream?sources=events&wssession={quote(token)}"


def refused_status(error):
    """The HTTP status of a refused handshake, across websockets versions."""
    status = getattr(error, "status_code", None)  # websockets < 14: InvalidStatusCode
    if status is None:
        response = getattr(error, "response", None)  # websockets >= 14: InvalidStatus
        status = getattr(response, "status_code", None)
    return status


async def stream(args):
    url = stream_url(args, get_token(args))
    async with websockets.connect(url, open_timeout=args.timeout, max_size=2**20) as ws:
        configure = {
            "apiVersion": "1.0",
            "context": args.context,
            "method": "events:configure",
            "params": {"eventFilterList": [{"topicFilter": f} for f in args.topic_filters]},
        }
        await ws.send(json.dumps(configure))
        notifications = 0
        while notifications < args.count:
            message = json.loads(await ws.recv())
            emit(message)
            if "error" in message:
                raise SystemExit(f"device answered an error: {message['error']}")
            if message.get("method") == "events:notify":
                notifications += 1


async def reuse_token(args):
    url = stream_url(args, get_token(args))
    for handshake in (1, 2):
        try:
            async with websockets.connect(url, open_timeout=args.timeout):
                emit({"handshake": handshake, "status": 101})
        except (websockets.exceptions.InvalidHandshake, getattr(websockets.exceptions, "InvalidStatus", ())) as error:
            status = refused_status(error)
            if status is None:
                raise
            emit({"handshake": handshake, "status": status})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base_url", help="e.g. http://127.0.0.1:8080")
    parser.add_argument("user")
    parser.add_argument("password")
    parser.add_argument("topic_filters", nargs="*", metavar="topic_filter")
    parser.add_argument("--cgi-prefix", default="/svc-cgi")
    parser.add_argument("--ws-prefix", default="/svc")
    parser.add_argument("--context", default="py")
    parser.add_argument("--count", type=int, default=1, help="notifications to wait for")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds before giving up")
    parser.add_argument("--reuse-token", action="store_true")
    args = parser.parse_args()
    args.base_url = args.base_url.rstrip("/")
    if not args.reuse_token and not args.topic_filters:
        parser.error("at least one topic_filter is needed")
    work = reuse_token(args) if args.reuse_token else stream(args)
    try:
        asyncio.run(asyncio.wait_for(work, args.timeout))
    except asyncio.TimeoutError:
        print(f"timed out after {args.timeout} s", file=sys.stderr, flush=True)
        sys.exit(2)
    except SystemExit:
        raise
    except Exception as error:  # noqa: BLE001 - report any failure as exit 1
        print(f"{type(error).__name__}: {error}", file=sys.stderr, flush=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
