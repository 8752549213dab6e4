"""The client app under test: it logs in to a camera with digest auth, opens its event
stream with a session token and collects the motion alarms it is sent. A real app would
do more; this is enough to show how bwc-emu tests one from Python."""
import asyncio
import json

import requests
from requests.auth import HTTPDigestAuth
import websockets

MOTION = "tns1:VideoSource/MotionAlarm"


class MotionClient:
    """The app, configured as it would be for a real camera: where to get a session token and
    where the event stream is, and its login."""

    def __init__(self, session_token_url, event_stream_url, user, password):
        self.session_token_url = session_token_url
        self.event_stream_url = event_stream_url
        self.auth = HTTPDigestAuth(user, password)

    def session_token(self):
        """A session token from wssession.cgi, with digest auth."""
        answer = requests.get(self.session_token_url, auth=self.auth, timeout=5)
        answer.raise_for_status()
        return answer.text

    def collect_motion(self, count, timeout=10):
        """Subscribes to motion and returns the states (True = motion) of the first `count` alarms."""
        return asyncio.run(asyncio.wait_for(self._collect(count), timeout))

    async def _collect(self, count):
        async with websockets.connect(f"{self.event_stream_url}&wssession={self.session_token()}") as ws:
            await ws.send(json.dumps({
                "apiVersion": "1.0",
                "method": "events:configure",
                "params": {"eventFilterList": [{"topicFilter": MOTION}]},
            }))
            states = []
            while len(states) < count:
                message = json.loads(await ws.recv())
                if "error" in message:
                    raise RuntimeError(message["error"]["message"])
                if message.get("method") == "events:notify":
                    notification = message["params"]["notification"]
                    if notification["topic"] == MOTION:
                        states.append(notification["message"]["data"].get("State") == "1")
            return states
