"""The handle on a running emulator: its devices, URLs and logins, and every action of the
control API (docs/control-api.md) as a method; :func:`start` runs one."""
import atexit
import os
import urllib.parse
import weakref
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from .command import Command, find_command
from .errors import BwcEmuError, EmulatorStartError
from .models import FaultInfo, Flag, Journal, PublishedEvent, ScenarioStatus, SessionInfo
from .process import EmulatorProcess
from .ready import Device, ReadyDocument, parse_device
from .report import JournalEntry, Report
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

    def health(self) -> Mapping[str, Any]:
        """``{"status": "ready", "devices": n}`` (a ControlError with status 503 while starting or closing)."""
        return dict(self.request("GET", "/health"))

    def device_list(self) -> List[Device]:
        """Every device as ``GET /_emu/devices`` answers (passwords included)."""
        return [parse_device(d) for d in self.request("GET", "/devices")]

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
        return list(self.request("POST", "/events", body=body, device=device)["events"])

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
        return list(self.request("PUT", "/states", body=list(states), device=device)["events"])

    def flags(self, device: Optional[DeviceRef] = None) -> List[Flag]:
        """The feature flags (``name``, ``value``, ``description``, ``defaultValue``)."""
        return list(self.request("GET", "/flags", device=device)["flags"])

    def flag(self, name: str, device: Optional[DeviceRef] = None) -> bool:
        """One flag's value (KeyError for a flag the device does not have)."""
        for flag in self.flags(device):
            if flag["name"] == name:
                return bool(flag["value"])
        raise KeyError(name)

    def set_flags(self, values: Optional[Mapping[str, bool]] = None, device: Optional[DeviceRef] = None, **named: bool) -> List[Flag]:
        """Sets flags all or nothing (one unknown name: ControlError ``FLAG_NOT_FOUND`` and
        nothing changes); answers the flags after the change."""
        body = {**dict(values or {}), **named}
        return list(self.request("PUT", "/flags", body=body, device=device)["flags"])

    def sessions(self, device: Optional[DeviceRef] = None) -> List[SessionInfo]:
        """The live event stream sessions."""
        return list(self.request("GET", "/sessions", device=device)["sessions"])

    def close_sessions(self, code: Optional[int] = None, reason: Optional[str] = None, device: Optional[DeviceRef] = None) -> int:
        """Closes every session with the WebSocket close ``code`` (default 1001); answers how many."""
        return int(self.request("DELETE", "/sessions", {"code": code, "reason": reason}, device=device)["closed"])

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
        answer = self.request("GET", "/journal", query, device=device)
        return Journal(list(answer["entries"]), int(answer.get("dropped", 0)))

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

    def name_segment(self, name: str) -> Mapping[str, Any]:
        """Names the running report segment; answers it (``index``, ``name``, ``named``, ``from``)."""
        return dict(self.request("PUT", "/segment", body={"name": name}))

    def faults(self, device: Optional[DeviceRef] = None) -> List[FaultInfo]:
        """The fault switches that are on."""
        return list(self.request("GET", "/faults", device=device)["faults"])

    def fault_switches(self) -> List[Mapping[str, Any]]:
        """Every fault switch: ``name``, ``kind``, ``does``, ``params`` (JSON Schema), ..."""
        return list(self.request("GET", "/faults/switches")["switches"])

    def fault_on(self, name: str, device: Optional[DeviceRef] = None, **params: Any) -> List[FaultInfo]:
        """Switches a fault on with its parameters as the API names them (``fault_on("stall",
        forMs=30000)``, docs/faults.md); an action (``reboot``) answers once it is over."""
        down = float(params.get("downMs", 0) or 0) / 1000 + float(params.get("delayMs", 0) or 0) / 1000
        timeout = self.http_timeout + down
        return list(self.request("POST", "/faults", body={"name": name, **params}, device=device, timeout=timeout)["faults"])

    def fault_off(self, name: Optional[str] = None, device: Optional[DeviceRef] = None) -> List[str]:
        """Switches one fault off, or all of them; answers the names cleared."""
        return list(self.request("DELETE", "/faults", {"name": name}, device=device)["cleared"])

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
        return Report(self.request("GET", "/report", query, device=device))

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
        return str(self.request("PUT", "/scenario", body=body, device=device)["name"])

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
        answer: SessionInfo = self._wait("session", {"topic": topic}, timeout, device)["session"]
        return answer

    def wait_for_notification(
        self,
        topic: Optional[str] = None,
        since: Optional[int] = None,
        timeout: float = 5.0,
        device: Optional[DeviceRef] = None,
    ) -> JournalEntry:
        """The journal entry of a notification sent (of ``topic``) after the journal seq
        ``since`` (take :meth:`journal_seq` before publishing, so none is missed)."""
        answer: JournalEntry = self._wait("notification", {"topic": topic, "since": since}, timeout, device)["entry"]
        return answer

    def wait_for_entry(
        self, kind: str, since: Optional[int] = None, timeout: float = 5.0, device: Optional[DeviceRef] = None
    ) -> JournalEntry:
        """The first journal entry of ``kind`` (``ws-close``, ``auth-refused``, ...) after ``since``."""
        answer: JournalEntry = self._wait("entry", {"kind": kind, "since": since}, timeout, device)["entry"]
        return answer


def _token_in(args: Sequence[str]) -> Optional[str]:
    """The ``--control-token`` among the arguments, if any."""
    for i, arg in enumerate(args):
        if arg == "--control-token" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--control-token="):
            return arg.split("=", 1)[1]
    return None


def _with_tried(error: EmulatorStartError, tried: List[str]) -> EmulatorStartError:
    """The same error, saying how the command was found."""
    first = str(error.args[0]).split("\n")[0]
    return EmulatorStartError(f"{first} (command found by: {'; '.join(tried)})", error.command, error.output)


def start(
    scenario: Union[str, Sequence[str], None] = None,
    devices: int = 1,
    args: Sequence[str] = (),
    command: Optional[Command] = None,
    env: Optional[Mapping[str, str]] = None,
    timeout: float = 30.0,
    *,
    control_token: Optional[str] = None,
    cwd: Optional[str] = None,
) -> Emulator:
    """Starts ``bwc-emu --port 0`` (free ports) and answers its handle once it is ready.

    ``scenario``: a shipped name or a file, or several (one device each); ``devices``: a fleet
    of that many; ``args``: more CLI flags (``["--auth", "none"]``); ``command``: how to run
    it (else ``$BWC_EMU_COMMAND``, ``bwc-emu`` on PATH, ``npx --no-install bwc-emu``); ``env``:
    variables over ``os.environ``; ``timeout``: seconds to wait for the ready line.
    Raises :class:`EmulatorStartError` quoting its last output lines when it cannot start.
    """
    environ = {**os.environ, **(env or {})}
    words, tried = find_command(command, environ)
    argv = words + ["--port", "0"]
    for name in [scenario] if isinstance(scenario, str) else list(scenario or []):
        argv += ["--scenario", name]
    if devices != 1:
        argv += ["--devices", str(int(devices))]
    if control_token is not None:
        argv += ["--control-token", control_token]
    argv += [str(a) for a in args]
    try:
        process = EmulatorProcess(argv, environ, cwd)
    except EmulatorStartError as error:
        raise _with_tried(error, tried) from error
    try:
        ready = process.wait_ready(timeout)
    except EmulatorStartError as error:
        raise _with_tried(error, tried) from error
    except BaseException:  # KeyboardInterrupt while waiting: leave nothing running
        process.stop()
        raise
    emulator = Emulator(process, ready, control_token or _token_in(argv))
    try:
        if ready.control and any(d.user is not None and d.password is None for d in ready.devices):
            # the ready line leaves a chosen password out; GET /_emu/devices has it
            emulator.ready = ReadyDocument(emulator.device_list(), ready.control, ready.raw)
    except BaseException:
        emulator.close()
        raise
    return emulator
