"""The handle on a running emulator: its devices, URLs and logins, and every action of the
control API (docs/control-api.md) as a method (:func:`bwc_emu.start` runs one). Its answers
have the wire's shapes, generated from the OpenAPI document (wire_types.py)."""
import atexit
import urllib.parse
import weakref
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import wire_types as wire
from .errors import BwcEmuError
from .models import FaultInfo, FaultSwitch, Flag, Journal, JournalEntry, PublishedEvent, ScenarioStatus, SessionInfo
from .process import EmulatorProcess
from .ready import Device, ReadyDocument, parse_device
from .report import Report
from .wire import QueryValue, request_json

#: A device named for a fleet route: its serial, or the Device itself.
DeviceRef = Union[str, Device]


class _Unset:
    """Marks an argument left out (where None means something)."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()

_open: "weakref.WeakSet[Emulator]" = weakref.WeakSet()


@atexit.register
def _close_all() -> None:
    """Stops the emulators a program forgot to close, so none outlives it."""
    for emulator in list(_open):
        emulator.close(grace=2.0)


def _ms(seconds: float) -> int:
    return max(0, int(round(seconds * 1000)))


def _csv(values: Union[str, Sequence[str], None]) -> Optional[str]:
    return values if values is None or isinstance(values, str) else ",".join(values)


class Emulator:
    """A running ``bwc-emu`` (from :func:`start`); a context manager that closes it on exit.

    Methods take ``device=`` (a serial or a :class:`Device`) to act on one device of a fleet
    through the first device's fleet routes (``/_emu/devices/{serial}/...``); without it they
    act on the first device. Refusals raise :class:`ControlError`, waits that time out
    :class:`WaitTimeout`.
    """

    def __init__(
        self,
        process: Optional[EmulatorProcess],
        ready: ReadyDocument,
        control_token: Optional[str] = None,
        http_timeout: float = 30.0,
    ) -> None:
        self.process = process
        self.ready = ready
        self.control_token = control_token
        #: Socket timeout of a control API request (waits add their own timeout to it).
        self.http_timeout = http_timeout
        self.closed = False
        _open.add(self)

    # --- what the ready document says ---------------------------------------------------

    @property
    def devices(self) -> List[Device]:
        """Every device, in order."""
        return self.ready.devices

    @property
    def device(self) -> Device:
        """The first device."""
        return self.ready.devices[0]

    @property
    def url(self) -> str:
        """The first device's base URL (``http://127.0.0.1:PORT``)."""
        return self.device.urls.base

    @property
    def control_url(self) -> Optional[str]:
        """The first device's control API (``.../_emu``); None with ``--no-control``."""
        return self.ready.control

    @property
    def user(self) -> Optional[str]:
        """The first device's admin user (None with ``--auth none``)."""
        return self.device.user

    @property
    def password(self) -> Optional[str]:
        """The first device's admin password (None with ``--auth none``)."""
        return self.device.password

    def output(self, lines: int = 20) -> List[str]:
        """The emulator's last output lines (stderr's, then stdout's logs)."""
        return self.process.output(lines) if self.process else []

    # --- the process ----------------------------------------------------------------------

    def close(self, grace: float = 5.0) -> None:
        """Stops the emulator: SIGTERM, then a kill after ``grace`` seconds. Safe to call again."""
        if self.closed:
            return
        self.closed = True
        _open.discard(self)
        if self.process is not None:
            self.process.stop(grace)

    def __enter__(self) -> "Emulator":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else "running"
        return f"<Emulator {state} {self.url} devices={len(self.devices)}>"

    # --- the control API ------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, QueryValue]] = None,
        body: Any = None,
        device: Optional[DeviceRef] = None,
        timeout: Optional[float] = None,
    ) -> Any:
        """Calls a control API route (``path`` after ``/_emu``, e.g. ``/flags``) and answers its
        parsed JSON (None for 204). For routes this class has no method for."""
        if self.control_url is None:
            raise BwcEmuError("the control API is off (bwc-emu --no-control): nothing to call")
        base = self.control_url
        if device is not None:
            serial = device.serial if isinstance(device, Device) else str(device)
            base += "/devices/" + urllib.parse.quote(serial, safe="")
        return request_json(method, base + path, query, body, timeout or self.http_timeout, self.control_token)

    def health(self) -> wire.HealthAnswer:
        """``{"status": "ready", "devices": n}`` (a ControlError with status 503 while starting or closing)."""
        answer: wire.HealthAnswer = self.request("GET", "/health")
        return answer

    def device_list(self) -> List[Device]:
        """Every device as ``GET /_emu/devices`` answers (passwords included)."""
        answer: wire.DevicesAnswer = self.request("GET", "/devices")
        return [parse_device(d) for d in answer]

    def publish(
        self,
        topic: str,
        source: Optional[Mapping[str, str]] = None,
        key: Optional[Mapping[str, str]] = None,
        data: Optional[Mapping[str, str]] = None,
        *,
        stateful: Optional[bool] = None,
        timestamp: Union[float, None, _Unset] = UNSET,
        device: Optional[DeviceRef] = None,
    ) -> List[PublishedEvent]:
        """Publishes an event (``timestamp``: epoch ms, None for none, the device clock if left
        out; ``stateful=True`` keeps it as the current state); answers what was published."""
        body: Dict[str, Any] = {"topic": topic}
        for name, value in (("source", source), ("key", key), ("data", data), ("stateful", stateful)):
            if value is not None:
                body[name] = value
        if not isinstance(timestamp, _Unset):
            body["timestamp"] = timestamp
        answer: wire.EventsAnswer = self.request("POST", "/events", body=body, device=device)
        return answer["events"]

    def set_state(
        self,
        topic: str,
        data: Mapping[str, str],
        source: Optional[Mapping[str, str]] = None,
        key: Optional[Mapping[str, str]] = None,
        *,
        device: Optional[DeviceRef] = None,
    ) -> List[PublishedEvent]:
        """Sets a stateful property: kept as the current state and sent to the matching sessions."""
        state: Dict[str, Any] = {"topic": topic, "data": dict(data)}
        if source is not None:
            state["source"] = dict(source)
        if key is not None:
            state["key"] = dict(key)
        return self.set_states([state], device=device)

    def set_states(self, states: Sequence[Mapping[str, Any]], device: Optional[DeviceRef] = None) -> List[PublishedEvent]:
        """Sets several states in order (each ``{topic, source?, key?, data}``)."""
        answer: wire.StatesAnswer = self.request("PUT", "/states", body=list(states), device=device)
        return answer["events"]

    def flags(self, device: Optional[DeviceRef] = None) -> List[Flag]:
        """The feature flags (``name``, ``value``, ``description``, ``defaultValue``)."""
        answer: wire.FlagsAnswer = self.request("GET", "/flags", device=device)
        return answer["flags"]

    def flag(self, name: str, device: Optional[DeviceRef] = None) -> bool:
        """One flag's value (KeyError for a flag the device does not have)."""
        for flag in self.flags(device):
            if flag["name"] == name:
                return flag["value"]
        raise KeyError(name)

    def set_flags(self, values: Optional[Mapping[str, bool]] = None, device: Optional[DeviceRef] = None, **named: bool) -> List[Flag]:
        """Sets flags all or nothing (one unknown name: ControlError ``FLAG_NOT_FOUND`` and
        nothing changes); answers the flags after the change."""
        body = {**dict(values or {}), **named}
        answer: wire.FlagsSetAnswer = self.request("PUT", "/flags", body=body, device=device)
        return answer["flags"]

    def sessions(self, device: Optional[DeviceRef] = None) -> List[SessionInfo]:
        """The live event stream sessions."""
        answer: wire.SessionsAnswer = self.request("GET", "/sessions", device=device)
        return answer["sessions"]

    def close_sessions(self, code: Optional[int] = None, reason: Optional[str] = None, device: Optional[DeviceRef] = None) -> int:
        """Closes every session with the WebSocket close ``code`` (default 1001); answers how many."""
        answer: wire.SessionsClosedAnswer = self.request("DELETE", "/sessions", {"code": code, "reason": reason}, device=device)
        return answer["closed"]

    def journal(
        self,
        since: Optional[int] = None,
        kind: Union[str, Sequence[str], None] = None,
        session: Optional[str] = None,
        topic: Optional[str] = None,
        via: Optional[str] = None,
        device: Optional[DeviceRef] = None,
    ) -> Journal:
        """What crossed the device's sockets, oldest first, after the seq ``since``; ``kind`` one
        kind or several (``notification``, ``ws-open``, ...), ``via="client"`` without the
        dashboard's own entries."""
        query = {"since": since, "kind": _csv(kind), "session": session, "topic": topic, "via": via}
        answer: wire.JournalAnswer = self.request("GET", "/journal", query, device=device)
        return Journal.parse(answer)

    def journal_seq(self, device: Optional[DeviceRef] = None) -> int:
        """The newest seq of the journal (0 when empty): a ``since`` to wait for what comes next."""
        return self.journal(device=device).last_seq

    def clear_journal(self, device: Optional[DeviceRef] = None) -> None:
        """Clears the journal (of the whole fleet: it is shared)."""
        self.request("DELETE", "/journal", device=device)

    def reset(self, segment: Optional[str] = None, device: Optional[DeviceRef] = None) -> None:
        """Back to the start on every device (flags, states, sessions, tokens, faults, journal,
        scenario); ends a report segment and begins one named ``segment`` (1-200 characters)."""
        self.request("POST", "/reset", {"segment": segment}, device=device)

    def name_segment(self, name: str) -> wire.Segment:
        """Names the running report segment; answers it (``index``, ``name``, ``named``, ``from``)."""
        answer: wire.Segment = self.request("PUT", "/segment", body={"name": name})
        return answer

    def faults(self, device: Optional[DeviceRef] = None) -> List[FaultInfo]:
        """The fault switches that are on."""
        answer: wire.FaultsAnswer = self.request("GET", "/faults", device=device)
        return answer["faults"]

    def fault_switches(self) -> List[FaultSwitch]:
        """Every fault switch: ``name``, ``kind``, ``does``, ``params`` (JSON Schema), ..."""
        answer: wire.FaultSwitchesAnswer = self.request("GET", "/faults/switches")
        return answer["switches"]

    def fault_on(self, name: str, device: Optional[DeviceRef] = None, **params: Any) -> List[FaultInfo]:
        """Switches a fault on with its parameters as the API names them (``fault_on("stall",
        forMs=30000)``, docs/faults.md); an action (``reboot``) answers once it is over."""
        down = float(params.get("downMs", 0) or 0) / 1000 + float(params.get("delayMs", 0) or 0) / 1000
        timeout = self.http_timeout + down
        answer: wire.FaultsOnAnswer = self.request("POST", "/faults", body={"name": name, **params}, device=device, timeout=timeout)
        return answer["faults"]

    def fault_off(self, name: Optional[str] = None, device: Optional[DeviceRef] = None) -> List[wire.FaultName]:
        """Switches one fault off, or all of them; answers the names cleared."""
        answer: wire.FaultsClearedAnswer = self.request("DELETE", "/faults", {"name": name}, device=device)
        return answer["cleared"]

    def override(
        self,
        cgi: str,
        answer: Mapping[str, Any],
        method: Optional[str] = None,
        match: Optional[str] = None,
        times: Optional[int] = None,
        device: Optional[DeviceRef] = None,
    ) -> List[wire.DeviceOverride]:
        """Makes the device answer ``cgi`` with ``answer`` (``{"error": {"code", "message"}}``,
        ``{"status", "body"}``, ``{"body": {...}}`` or ``{"delayMs"}``) after authentication,
        ``times`` times or until cleared (docs/control-api.md); answers the overrides made, with their ids."""
        spec: Dict[str, Any] = {"cgi": cgi, "answer": dict(answer)}
        for key, value in (("method", method), ("match", match), ("times", times)):
            if value is not None:
                spec[key] = value
        made: wire.OverridesAnswer = self.request("POST", "/overrides", body=spec, device=device)
        return made["overrides"]

    def overrides(self, device: Optional[DeviceRef] = None) -> List[wire.DeviceOverride]:
        """The answer overrides in force."""
        answer: wire.OverridesAnswer = self.request("GET", "/overrides", device=device)
        return answer["overrides"]

    def clear_overrides(self, id: Optional[str] = None, device: Optional[DeviceRef] = None) -> List[str]:
        """Removes one answer override by its id, or all of them; answers the ids removed."""
        answer: wire.OverridesClearedAnswer = self.request("DELETE", "/overrides", {"id": id}, device=device)
        return answer["cleared"]

    def report(
        self,
        thresholds: Optional[Mapping[str, float]] = None,
        rules: Union[str, Sequence[str], None] = None,
        skip_rules: Union[str, Sequence[str], None] = None,
        segments: Optional[str] = None,
        all_devices: bool = False,
        device: Optional[DeviceRef] = None,
    ) -> Report:
        """The grading report (docs/grading.md): ``segments="current"`` for the running segment
        only, ``thresholds`` by name (``{"reconnectWithinMs": 5000}``), ``rules`` or
        ``skip_rules`` as rule ids."""
        query: Dict[str, QueryValue] = {"segments": segments, "rules": _csv(rules), "skipRules": _csv(skip_rules)}
        if all_devices:
            query["all"] = "true"
        for name, value in (thresholds or {}).items():
            query[name] = value
        answer: wire.Report = self.request("GET", "/report", query, device=device)
        return Report(answer)

    def scenario(self, device: Optional[DeviceRef] = None) -> ScenarioStatus:
        """Where the scenario is: ``name``, ``state``, ``positionMs``, ``speed``, ``revision``, ``topics``."""
        answer: ScenarioStatus = self.request("GET", "/scenario", device=device)
        return answer

    def load_scenario(self, yaml: str, name: Optional[str] = None, device: Optional[DeviceRef] = None) -> str:
        """Replaces the scenario (YAML text) and plays it from the start; answers its name.
        A scenario with errors changes nothing: ControlError ``BAD_SCENARIO`` with ``errors``."""
        body: Dict[str, str] = {"yaml": yaml}
        if name is not None:
            body["name"] = name
        answer: wire.ScenarioLoadedAnswer = self.request("PUT", "/scenario", body=body, device=device)
        return answer["name"]

    def pause_scenario(self, device: Optional[DeviceRef] = None) -> None:
        """Pauses the scenario (sessions stay)."""
        self.request("POST", "/scenario/pause", device=device)

    def play_scenario(self, device: Optional[DeviceRef] = None) -> None:
        """Resumes the scenario where it stopped."""
        self.request("POST", "/scenario/play", device=device)

    def restart_scenario(self, device: Optional[DeviceRef] = None) -> None:
        """Plays the scenario again from zero."""
        self.request("POST", "/scenario/restart", device=device)

    # --- waits (long polls; the socket waits longer than the emulator) ---------------------

    def _wait(self, route: str, query: Mapping[str, QueryValue], timeout: float, device: Optional[DeviceRef]) -> Any:
        return self.request("GET", "/wait/" + route, {**query, "timeout": _ms(timeout)}, device=device, timeout=timeout + 10.0)

    def wait_for_session(self, topic: Optional[str] = None, timeout: float = 5.0, device: Optional[DeviceRef] = None) -> SessionInfo:
        """The first session open (and, with ``topic``, configured with a filter that selects
        it); :class:`WaitTimeout` after ``timeout`` seconds, saying what was seen."""
        answer: wire.SessionWaitAnswer = self._wait("session", {"topic": topic}, timeout, device)
        return answer["session"]

    def wait_for_notification(
        self,
        topic: Optional[str] = None,
        since: Optional[int] = None,
        timeout: float = 5.0,
        device: Optional[DeviceRef] = None,
    ) -> wire.NotificationJournalEntry:
        """The journal entry of a notification sent (of ``topic``) after the journal seq
        ``since`` (take :meth:`journal_seq` before publishing, so none is missed)."""
        answer: wire.NotificationWaitAnswer = self._wait("notification", {"topic": topic, "since": since}, timeout, device)
        return answer["entry"]

    def wait_for_entry(
        self, kind: str, since: Optional[int] = None, timeout: float = 5.0, device: Optional[DeviceRef] = None
    ) -> JournalEntry:
        """The first journal entry of ``kind`` (``ws-close``, ``auth-refused``, ...) after ``since``."""
        answer: wire.EntryWaitAnswer = self._wait("entry", {"kind": kind, "since": since}, timeout, device)
        return answer["entry"]
