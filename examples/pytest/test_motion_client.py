"""The Python client app tested against bwc-emu: the test publishes through the control
API and reads the journal of what the client did on the wire."""
import asyncio
import threading

import requests

from motion_client import MOTION, collect_motion


def publish_when_subscribed(control, states):
    """Publishes the motion states from another thread once the client has subscribed."""
    subscribed = threading.Event()

    def publish():
        subscribed.wait(5)
        for state in states:
            control("post", "/events", json={"topic": MOTION, "source": {"VideoSourceConfigurationToken": "1"}, "data": {"State": state}})

    thread = threading.Thread(target=publish)
    thread.start()
    return subscribed.set, thread


def test_reports_motion_starting_and_stopping(device, control):
    subscribed, publisher = publish_when_subscribed(control, ["1", "0"])
    states = asyncio.run(collect_motion(device, 2, subscribed))
    publisher.join()
    assert states == [True, False]


def test_subscribes_to_motion_only_with_one_token(device, control):
    subscribed, publisher = publish_when_subscribed(control, ["1"])
    asyncio.run(collect_motion(device, 1, subscribed))
    publisher.join()
    journal = control("get", "/journal", params={"kind": "configure"})
    assert [entry["filters"] for entry in journal["entries"]] == [[{"topicFilter": MOTION}]]
    requests_made = control("get", "/journal", params={"kind": "http"})["entries"]
    assert [(entry["status"], entry.get("auth")) for entry in requests_made] == [(401, None), (200, "digest")]


def test_feature_flags_set_through_the_control_api_are_what_the_device_serves(device, control):
    flags = control("get", "/flags")["flags"]
    name = flags[0]["name"]
    control("put", "/flags", json={name: not flags[0]["value"]})
    answer = requests.post(
        device["urls"]["featureFlags"],
        json={"apiVersion": "1.0", "method": "get", "params": {"names": [name]}},
        auth=requests.auth.HTTPDigestAuth(device["user"], device["password"]),
        timeout=5,
    )
    assert answer.json()["data"]["flagValues"][name] is (not flags[0]["value"])


def test_each_test_starts_from_a_reset_device(device, control):
    assert control("get", "/journal")["entries"] == []
    assert control("get", "/sessions") == {"sessions": []}
