"""The ready document the emulator prints once every device listens (``bwc-emu ready {JSON}``,
its first stdout line; src/cli/ready.ts): the devices, their URLs and logins, the control API."""
import json
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

from .wire_types import DeviceAccess

READY_PREFIX = "bwc-emu ready "


@dataclass(frozen=True)
class DeviceUrls:
    """Where a device serves each interface (the ready document's ``urls``)."""

    #: ``http(s)://host:port``
    base: str
    #: ``ws(s)://.../ws-data-stream?sources=events``: add ``&wssession=TOKEN``.
    event_stream: str
    #: wssession.cgi: a session token for the event stream (digest login).
    session_token: str
    #: featureflag.cgi (JSON-RPC).
    feature_flags: str
    #: apidiscovery.cgi, basicdeviceinfo.cgi, param.cgi (None if the emulator does not name them).
    api_discovery: Optional[str] = None
    basic_device_info: Optional[str] = None
    param: Optional[str] = None
    #: Every URL as the document names it (camelCase keys), those above included.
    by_name: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Device:
    """One device of the emulator: its serial, URLs, admin login and control API."""

    serial: str
    urls: DeviceUrls
    #: The admin account; None when the device runs with ``--auth none``.
    user: Optional[str]
    #: The admin password; None with ``--auth none``.
    password: Optional[str]
    #: The digest realm, e.g. ``SVC_ACCC8E000001``.
    realm: str
    #: This device's control API (``.../_emu``); None with ``--no-control``.
    control: Optional[str]

    @property
    def url(self) -> str:
        """The device's base URL."""
        return self.urls.base

    def session_token(self, timeout: float = 5.0) -> str:
        """A session token from wssession.cgi, logging in with the admin account (digest or
        Basic, as the device asks): what a client does before it opens the event stream."""
        handlers: List[urllib.request.BaseHandler] = [urllib.request.ProxyHandler({})]
        if self.user is not None:
            passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
            passwords.add_password(None, self.urls.base, self.user, self.password or "")
            handlers.append(urllib.request.HTTPDigestAuthHandler(passwords))
            handlers.append(urllib.request.HTTPBasicAuthHandler(passwords))
        opener = urllib.request.build_opener(*handlers)
        with opener.open(self.urls.session_token, timeout=timeout) as answer:
            return str(answer.read().decode("utf-8").strip())

    def event_stream_url(self, token: Optional[str] = None, timeout: float = 5.0) -> str:
        """The event stream URL with a session token (a fresh one unless given)."""
        return f"{self.urls.event_stream}&wssession={token or self.session_token(timeout)}"


@dataclass(frozen=True)
class ReadyDocument:
    """What the ready line says: every device, in order, and the first device's control API."""

    devices: List[Device]
    control: Optional[str]
    #: The document as printed (camelCase keys).
    raw: Mapping[str, Any]


def _camel_to_snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def parse_device(item: DeviceAccess) -> Device:
    """A device of ``GET /_emu/devices`` or of the ready document, which has the same shape but
    leaves ``user``, ``password`` and ``control`` out where the answer has null (and a chosen
    password out always)."""
    urls: Dict[str, str] = dict(item["urls"])
    known = {_camel_to_snake(k): v for k, v in urls.items() if _camel_to_snake(k) in DeviceUrls.__dataclass_fields__}
    known.pop("by_name", None)
    return Device(
        serial=item["serial"],
        urls=DeviceUrls(**{**{"event_stream": "", "session_token": "", "feature_flags": ""}, **known}, by_name=urls),
        user=item.get("user"),
        password=item.get("password"),
        realm=item["realm"],
        control=item.get("control"),
    )


def parse_ready_line(line: str) -> ReadyDocument:
    """The document of a ``bwc-emu ready {JSON}`` line; ValueError if it is not one."""
    if not line.startswith(READY_PREFIX):
        raise ValueError(f"not a ready line: {line[:200]!r}")
    raw = json.loads(line[len(READY_PREFIX):])
    if not isinstance(raw, dict) or not isinstance(raw.get("devices"), list):
        raise ValueError(f"the ready line has no devices: {line[:200]!r}")
    return ReadyDocument(devices=[parse_device(d) for d in raw["devices"]], control=raw.get("control"), raw=raw)
