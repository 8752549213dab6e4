"""The shapes of the control API's answers (schema/control-api.openapi.json), as TypedDicts:
plain dicts at run time, with their keys as the API sends them (camelCase)."""
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, TypedDict

from .report import JournalEntry


class TopicFilter(TypedDict, total=False):
    """One filter of a session's ``events:configure``."""

    topicFilter: str
    contentFilter: str


class _SessionKeys(TypedDict):
    id: str
    device: str
    #: ``OPEN``, ``CONFIGURED`` or ``CLOSED``
    state: str
    sources: List[str]
    #: epoch ms
    connectedAt: float
    filters: List[TopicFilter]
    sent: int
    dropped: int


class SessionInfo(_SessionKeys, total=False):
    """A live event stream session (``GET /_emu/sessions``)."""

    remoteAddress: str
    user: str
    #: ``dashboard`` for the emulator's own page (not graded); absent for a client's session.
    via: str


class Flag(TypedDict):
    """A feature flag (``GET /_emu/flags``)."""

    name: str
    value: bool
    description: str
    defaultValue: bool


class PublishedEvent(TypedDict):
    """An event as published (``POST /_emu/events``, ``PUT /_emu/states``)."""

    topic: str
    #: epoch ms, None when sent without one
    timestamp: Optional[float]
    stateful: bool
    message: Dict[str, Dict[str, str]]


class FaultInfo(TypedDict):
    """A fault switch that is on (``GET /_emu/faults``)."""

    name: str
    device: str
    params: Dict[str, Any]
    #: epoch ms it was switched on
    since: float
    #: epoch ms it switches off; None: until cleared
    until: Optional[float]


class ScenarioStatus(TypedDict):
    """Where the device's scenario is (``GET /_emu/scenario``)."""

    name: Optional[str]
    #: ``playing``, ``paused`` or ``finished``
    state: str
    positionMs: float
    speed: float
    revision: int
    topics: List[str]


@dataclass(frozen=True)
class Journal:
    """A read of the journal: the ``entries`` (oldest first) and how many the bounded journal
    ``dropped``. Iterating it iterates the entries."""

    entries: List[JournalEntry] = field(default_factory=list)
    dropped: int = 0

    @property
    def last_seq(self) -> int:
        """The seq of the newest entry read, 0 when none: pass it as ``since`` to read on."""
        return max((int(e.get("seq", 0)) for e in self.entries), default=0)

    def of_kind(self, *kinds: str) -> List[JournalEntry]:
        """The entries of these kinds."""
        return [e for e in self.entries if e.get("kind") in kinds]

    def __iter__(self) -> Iterator[JournalEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)
