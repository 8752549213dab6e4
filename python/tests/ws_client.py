"""A tiny event stream client for the tests (Debian's python3-websocket): what an app under
test does to subscribe."""
import json
from typing import Any, Dict, List

import websocket

from bwc_emu import Device


def subscribe(device: Device, topic_filter: str = "tns1:Device//.", timeout: float = 5.0) -> websocket.WebSocket:
    """Opens the event stream with a fresh session token and configures one topic filter;
    answers the socket once the device accepted the subscription."""
    ws = websocket.create_connection(device.event_stream_url(), timeout=timeout)
    ws.send(json.dumps({
        "apiVersion": "1.0",
        "context": "test",
        "method": "events:configure",
        "params": {"eventFilterList": [{"topicFilter": topic_filter}]},
    }))
    while True:
        message = json.loads(ws.recv())
        if "error" in message:
            raise RuntimeError(message["error"])
        if message.get("method") == "events:configure":
            return ws


def notifications(ws: websocket.WebSocket, count: int) -> List[Dict[str, Any]]:
    """The next ``count`` notifications the socket receives."""
    found: List[Dict[str, Any]] = []
    while len(found) < count:
        message = json.loads(ws.recv())
        if message.get("method") == "events:notify":
            found.append(message["params"]["notification"])
    return found
