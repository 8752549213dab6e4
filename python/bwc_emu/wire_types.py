"""The control API's answers as the server sends them (camelCase keys), as TypedDicts:
plain dicts at run time. Generated from schema/control-api.openapi.json (itself generated from
the server's zod schemas) by python/tools/gen_wire_types.py: do not edit, run `npm run docs`.
"""
from typing import Any, Dict, List, Literal, Optional, TypedDict, Union


class ErrorBodyErrorErrorsItem(TypedDict):
    """From Error.error.errors[]."""

    line: int
    col: int
    message: str
    #: `file:line:col: message`
    text: str


class _ErrorBodyErrorRequired(TypedDict):
    #: stable code: BAD_REQUEST, NOT_FOUND, FLAG_NOT_FOUND, TIMEOUT, ...
    code: str
    message: str


class ErrorBodyError(_ErrorBodyErrorRequired, total=False):
    """From Error.error."""

    errors: List[ErrorBodyErrorErrorsItem]


class ErrorBody(TypedDict):
    """From Error."""

    error: ErrorBodyError


class HttpJournalEntryError(TypedDict):
    """The JSON-RPC error the CGI answered with. From JournalEntry[kind="http"].error."""

    code: int
    message: str


class HttpJournalEntryBody(TypedDict):
    """What was sent, kept only for a request answered with an error (JSON-RPC, or 4xx but 401).
    From JournalEntry[kind="http"].body.
    """

    #: the whole size in bytes
    bytes: int
    #: the start as UTF-8 text (at most 512 characters, `…` marks a cut), secret-looking
    #: values redacted
    text: str


class _HttpJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["http"]
    method: str
    path: str
    ms: float


class HttpJournalEntry(_HttpJournalEntryRequired, total=False):
    """From JournalEntry[kind="http"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]
    status: int
    auth: Literal["digest", "basic", "token", "none"]
    user: str
    remote: str
    #: the JSON-RPC error the CGI answered with
    error: HttpJournalEntryError
    #: the JSON-RPC `method` the body named
    call: str
    #: what was sent, kept only for a request answered with an error (JSON-RPC, or 4xx but
    #: 401)
    body: HttpJournalEntryBody
    #: the number of the session token this `wssession.cgi` request was answered with (issue
    #: order on the device, from 1)
    token: int
    #: the id of the answer override that answered the request
    override: str


class _WsOpenJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["ws-open"]
    session: str


class WsOpenJournalEntry(_WsOpenJournalEntryRequired, total=False):
    """From JournalEntry[kind="ws-open"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]
    user: str
    remote: str
    #: the number of the session token that opened the session (issue order on the device,
    #: from 1)
    token: int


class _WsCloseJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["ws-close"]
    session: str
    code: int
    reason: str
    #: who ended the session
    by: Literal["client", "device"]


class WsCloseJournalEntry(_WsCloseJournalEntryRequired, total=False):
    """From JournalEntry[kind="ws-close"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]


class _WsRefusedJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["ws-refused"]
    path: str
    status: int
    reason: str


class WsRefusedJournalEntry(_WsRefusedJournalEntryRequired, total=False):
    """From JournalEntry[kind="ws-refused"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]
    remote: str


class TopicFilter(TypedDict, total=False):
    """From JournalEntry[kind="configure"].filters[]."""

    topicFilter: str
    contentFilter: str


class ConfigureJournalEntryError(TypedDict):
    """From JournalEntry[kind="configure"].error."""

    code: int
    message: str


class _ConfigureJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["configure"]
    session: str
    filters: List[TopicFilter]


class ConfigureJournalEntry(_ConfigureJournalEntryRequired, total=False):
    """From JournalEntry[kind="configure"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]
    error: ConfigureJournalEntryError


class MessageRefusedJournalEntrySent(TypedDict):
    """What was sent; absent when the device read none of it. From JournalEntry[kind="message-
    refused"].sent.
    """

    #: the whole size in bytes
    bytes: int
    #: the start as UTF-8 text (at most 512 characters, `…` marks a cut), secret-looking
    #: values redacted
    text: str


class _MessageRefusedJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["message-refused"]
    session: str
    #: the JSON-RPC error code answered, or the close code when `closed`
    code: int
    message: str
    #: the device closed the session instead of answering
    closed: bool
    binary: bool


class MessageRefusedJournalEntry(_MessageRefusedJournalEntryRequired, total=False):
    """From JournalEntry[kind="message-refused"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]
    #: what was sent; absent when the device read none of it
    sent: MessageRefusedJournalEntrySent


class _NotificationJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["notification"]
    session: str
    topic: str
    #: the device's number of the event; copies share it
    event: int


class NotificationJournalEntry(_NotificationJournalEntryRequired, total=False):
    """From JournalEntry[kind="notification"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]


class _AuthRefusedJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["auth-refused"]
    method: str
    path: str
    #: NO_CREDENTIALS, STALE_NONCE, WRONG_PASSWORD, TOKEN_EXPIRED, ...
    code: Literal["NO_CREDENTIALS", "REJECTING", "THROTTLED", "SCHEME_NOT_ACCEPTED", "BASIC_OVER_HTTP", "MALFORMED", "WRONG_SCHEME", "MISSING_PARAMETER", "UNSUPPORTED", "WRONG_REALM", "WRONG_URI", "BAD_NONCE", "UNKNOWN_USER", "WRONG_PASSWORD", "STALE_NONCE", "REPLAYED", "REPLAY_LIMIT", "NOT_BASE64", "NO_COLON", "TOKEN_UNKNOWN", "TOKEN_EXPIRED", "TOKEN_REUSED"]
    reason: str
    stale: bool


class AuthRefusedJournalEntry(_AuthRefusedJournalEntryRequired, total=False):
    """From JournalEntry[kind="auth-refused"]."""

    #: set on the entries of the emulator's own dashboard and of the test's own calls, which
    #: are not graded
    via: Literal["dashboard", "test"]
    scheme: str
    user: str
    remote: str
    #: the number of the session token refused, when the device still knows it (expired,
    #: reused; an unknown one: the issued token it alters) (issue order on the device, from
    #: 1)
    token: int


#: JournalEntry[kind="fault"].name.
FaultName = Literal["stall", "drop", "reboot", "digest", "slots", "stuck-states", "no-initial-states", "flap", "storm", "clock", "no-websocket", "cgi", "tls-host"]


class FaultJournalEntry(TypedDict):
    """From JournalEntry[kind="fault"]."""

    seq: int
    time: str
    device: str
    kind: Literal["fault"]
    name: FaultName
    state: Literal["on", "off", "start", "end"]
    params: Dict[str, Any]


class _ExpectJournalEntryRequired(TypedDict):
    seq: int
    time: str
    device: str
    kind: Literal["expect"]
    name: str
    that: Literal["connected", "configured"]
    withinMs: float


class ExpectJournalEntry(_ExpectJournalEntryRequired, total=False):
    """From JournalEntry[kind="expect"]."""

    topic: str


#: JournalEntry: one of these, told apart by their tag.
JournalEntry = Union[
    HttpJournalEntry,
    WsOpenJournalEntry,
    WsCloseJournalEntry,
    WsRefusedJournalEntry,
    ConfigureJournalEntry,
    MessageRefusedJournalEntry,
    NotificationJournalEntry,
    AuthRefusedJournalEntry,
    FaultJournalEntry,
    ExpectJournalEntry,
]


#: Report.findings[].severity.
Severity = Literal["error", "warning", "info"]


class _SessionInfoRequired(TypedDict):
    id: str
    device: str
    state: Literal["OPEN", "CONFIGURED", "CLOSED"]
    sources: List[str]
    connectedAt: float
    filters: List[TopicFilter]
    sent: int
    dropped: int


class SessionInfo(_SessionInfoRequired, total=False):
    """From GET /_emu/sessions: sessions[]."""

    remoteAddress: str
    user: str
    #: the emulator's own client (the dashboard), not graded; absent for a client's session
    via: Literal["dashboard", "test"]


class DeviceAccess(TypedDict):
    """From GET /_emu/devices: []."""

    serial: str
    #: every endpoint's URL (`base`, `featureFlags`, `sessionToken`, `eventStream`, ...)
    urls: Dict[str, str]
    #: the admin account; null with auth `none`
    user: Optional[str]
    password: Optional[str]
    realm: str
    #: the control API of this device (`.../_emu`); null when it is off
    control: Optional[str]


class Flag(TypedDict):
    """From GET /_emu/flags: flags[]."""

    name: str
    value: bool
    description: str
    defaultValue: bool


class PublishedEventMessage(TypedDict, total=False):
    """From PublishedEvent.message."""

    source: Dict[str, str]
    key: Dict[str, str]
    data: Dict[str, str]


class PublishedEvent(TypedDict):
    """From PublishedEvent."""

    topic: str
    #: epoch milliseconds, null when sent without one
    timestamp: Optional[float]
    stateful: bool
    message: PublishedEventMessage


class FaultInfo(TypedDict):
    """From GET /_emu/faults: faults[]."""

    name: FaultName
    device: str
    params: Dict[str, Any]
    #: epoch ms it was switched on
    since: float
    #: epoch ms it switches off (an action: when it ended); null: until cleared
    until: Optional[float]


class FaultSwitch(TypedDict):
    """From GET /_emu/faults/switches: switches[]."""

    name: FaultName
    kind: Literal["state", "action"]
    does: str
    exposes: str
    source: str
    #: JSON Schema (draft 2020-12) of its parameters, as POST /faults takes them besides
    #: `name`: type, enum, minimum, maximum, default and description of each
    params: Dict[str, Any]


#: From Segment.
Segment = TypedDict(
    "Segment",
    {
        #: 1 for the first, counting every reset
        "index": int,
        #: the name the test gave it, else `segment <index>`
        "name": str,
        "named": bool,
        #: when it began
        "from": str,
    },
)


class ScenarioStatus(TypedDict):
    """From ScenarioStatus."""

    #: the scenario's `name:`, null when it has none
    name: Optional[str]
    state: Literal["playing", "paused", "finished"]
    #: scenario milliseconds since its start (speed applied): held while paused, at the end
    #: once finished, 0 after a restart
    positionMs: float
    #: playback speed (2 = twice as fast)
    speed: float
    #: grows at each change of course: a new scenario, a restart, a reset, a pause, a play,
    #: the end (the same revision: the scenario has only moved on as it plays)
    revision: int
    #: the topics it publishes, initial states included, in the device namespace, sorted
    topics: List[str]


class DeviceOverrideAnswer1Error(TypedDict):
    """From DeviceOverride.answer.error."""

    code: int
    message: str


class DeviceOverrideAnswer1(TypedDict):
    """A JSON-RPC error, answered HTTP 200 as real devices do (JSON-RPC CGIs only). From
    DeviceOverride.answer.
    """

    error: DeviceOverrideAnswer1Error


class _DeviceOverrideAnswer2Required(TypedDict):
    status: int


class DeviceOverrideAnswer2(_DeviceOverrideAnswer2Required, total=False):
    """An HTTP status with a text body. From DeviceOverride.answer."""

    #: the text body (default: the status line)
    body: str


class DeviceOverrideAnswer3(TypedDict):
    """A JSON body, answered HTTP 200. From DeviceOverride.answer."""

    body: Dict[str, Any]


class DeviceOverrideAnswer4(TypedDict):
    """The real answer, after this many ms. From DeviceOverride.answer."""

    delayMs: int


class _DeviceOverrideRequired(TypedDict):
    #: the CGI file, e.g. `featureflag.cgi`
    cgi: str
    answer: Union[DeviceOverrideAnswer1, DeviceOverrideAnswer2, DeviceOverrideAnswer3, DeviceOverrideAnswer4]
    id: str
    #: requests answered so far
    answered: int
    device: str


class DeviceOverride(_DeviceOverrideRequired, total=False):
    """From DeviceOverride."""

    #: only requests naming this JSON-RPC method
    method: str
    #: only requests whose body (a GET: its query) contains this text
    match: str
    #: answer this many requests, then go (default: until cleared)
    times: int


class Thresholds(TypedDict):
    """From Report.thresholds."""

    minRetryIntervalMs: float
    minRetryRun: float
    reconnectWithinMs: float
    configureWithinMs: float
    staleRetryWithinMs: float
    recoverWithinMs: float
    stallDetectWithinMs: float
    maxSessionsPerClient: float
    pollingWindowMs: float
    pollingMaxRequests: float
    minUnusedTokens: float
    maxRefusedRepeats: float


class Summary(TypedDict):
    """Every segment's, the dropped segments' included. From Report.summary."""

    errors: int
    warnings: int
    infos: int
    expectationsBroken: int


class JournalCounts(TypedDict):
    """From Report.journal."""

    entries: int
    dropped: int


class SegmentRef(TypedDict):
    """From Report.findings[].segment."""

    #: 1 for the first, counting every reset
    index: int
    #: the name the test gave it, else `segment <index>`
    name: str


class FindingClient(TypedDict):
    """From Report.findings[].client."""

    remote: str
    users: List[str]


class Finding(TypedDict):
    """From Report.findings[]."""

    #: rule id, documented in docs/grading.md
    rule: str
    severity: Severity
    device: str
    client: FindingClient
    message: str
    evidence: List[JournalEntry]
    #: evidence entries left out
    moreEvidence: int
    fix: str
    segment: SegmentRef


class _ExpectationRequired(TypedDict):
    device: str
    name: str
    that: Literal["connected", "configured"]
    since: str
    withinMs: float
    status: Literal["held", "broken", "pending"]
    segment: SegmentRef


class Expectation(_ExpectationRequired, total=False):
    """From Report.expectations[]."""

    topic: str
    tookMs: float
    evidence: JournalEntry


class RuleApplied(TypedDict):
    """From Report.rules[]."""

    id: str
    severity: Severity
    title: str
    findings: int


#: From Report.segments[].
ReportSegment = TypedDict(
    "ReportSegment",
    {
        #: 1 for the first, counting every reset
        "index": int,
        #: the name the test gave it, else `segment <index>`
        "name": str,
        #: whether the test named it
        "named": bool,
        #: when it began (the start, or the reset that began it)
        "from": str,
        #: when it ended (the reset), or the time of the report while it runs
        "to": str,
        "ended": bool,
        "journal": JournalCounts,
        #: the thresholds its findings were judged by
        "thresholds": Thresholds,
        "summary": Summary,
    },
)


class ReportDroppedSegments(TypedDict):
    """The oldest ended segments no longer kept: only their counts are left. From
    Report.droppedSegments.
    """

    segments: int
    summary: Summary


class Report(TypedDict):
    """From Report."""

    generatedAt: str
    journal: JournalCounts
    thresholds: Thresholds
    #: every segment's, the dropped segments' included
    summary: Summary
    #: the rules applied
    rules: List[RuleApplied]
    #: the rules left out (rules=, skipRules=)
    skippedRules: List[str]
    segments: List[ReportSegment]
    #: the oldest ended segments no longer kept: only their counts are left
    droppedSegments: ReportDroppedSegments
    findings: List[Finding]
    expectations: List[Expectation]


class HealthAnswer(TypedDict):
    """From GET /_emu/health."""

    status: Literal["ready"]
    devices: int


#: GET /_emu/devices.
DevicesAnswer = List[DeviceAccess]


class EventsAnswer(TypedDict):
    """From POST /_emu/events."""

    events: List[PublishedEvent]


#: PUT /_emu/states: the same shape as EventsAnswer.
StatesAnswer = EventsAnswer


class FlagsAnswer(TypedDict):
    """From GET /_emu/flags."""

    flags: List[Flag]


#: PUT /_emu/flags: the same shape as FlagsAnswer.
FlagsSetAnswer = FlagsAnswer


class SessionsAnswer(TypedDict):
    """From GET /_emu/sessions."""

    sessions: List[SessionInfo]


class SessionsClosedAnswer(TypedDict):
    """From DELETE /_emu/sessions."""

    closed: int


class FaultsAnswer(TypedDict):
    """From GET /_emu/faults."""

    faults: List[FaultInfo]


#: POST /_emu/faults: the same shape as FaultsAnswer.
FaultsOnAnswer = FaultsAnswer


class FaultsClearedAnswer(TypedDict):
    """From DELETE /_emu/faults."""

    cleared: List[FaultName]


class FaultSwitchesAnswer(TypedDict):
    """From GET /_emu/faults/switches."""

    switches: List[FaultSwitch]


class OverridesAnswer(TypedDict):
    """From GET /_emu/overrides."""

    overrides: List[DeviceOverride]


class OverridesClearedAnswer(TypedDict):
    """From DELETE /_emu/overrides."""

    cleared: List[str]


class JournalAnswer(TypedDict):
    """From GET /_emu/journal."""

    entries: List[JournalEntry]
    #: entries the bounded journal pushed out since the last clear
    dropped: int


class ScenarioLoadedAnswer(TypedDict):
    """From PUT /_emu/scenario."""

    #: the scenario's name, or the name it was sent as
    name: str


class SessionWaitAnswer(TypedDict):
    """From GET /_emu/wait/session."""

    session: SessionInfo


class NotificationWaitAnswer(TypedDict):
    """From GET /_emu/wait/notification."""

    entry: NotificationJournalEntry


class EntryWaitAnswer(TypedDict):
    """From GET /_emu/wait/entry."""

    entry: JournalEntry
