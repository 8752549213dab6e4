"""The client app under test: it logs in to a camera with digest auth, opens its event
stream with a session token and collects the motion alarms it is sent. A real app would
do more; this is enough to show how bwc-emu tests one from Python."""
import asyncio
import json

import requests
from requests.auth import HTTPDigestAuth
import websockets

MOTION = "tns1:VideoSource/MotionAlarm"


def session_token(device):
    """A session token from wssession.cgi, with digest auth."""
    answer = requests.get(
        device["urls"]["sessionToken"],
        auth=HTTPDigestAuth(device["user"], device["password"]),
        timeout=5,
    )
    answer.raise_for_status()
    return answer.text


async def collect_motion(device, count, subscribed=None, timeout=5):
    """Subscribes to motion and returns the states (True = motion) of the first `count` alarms.

    `subscribed` is called once the camera accepted the subscription."""
    url = f"{device['urls']['eventStream']}&wssession={session_token(device)}"
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({
            "apiVersion": "1.0",
            "method": "events:configure",
            "params": {"eventFilterList": [{"topicFilter": MOTION}]},
        }))
        return await asyncio.wait_for(_receive(ws, count, subscribed), timeout)


async def _receive(ws, count, subscribed):
    states = []
    while len(states) < count:
        message = json.loads(await ws.recv())
        if "error" in message:
            raise RuntimeError(message["error"]["message"])
        if message.get("method") == "events:configure" and subscribed:
            subscribed()
        elif message.get("method") == "events:notify":
            notification = message["params"]["notification"]
            if notification["topic"] == MOTION:
                states.append(notification["message"]["data"].get("State") == "1")
    return states
