"""What the handle answers besides the wire's own shapes: a read of the journal. The answers'
shapes (SessionInfo, Flag, FaultInfo, ...) are generated from the OpenAPI document into
wire_types.py and re-exported here."""
from dataclasses import dataclass, field
from typing import Iterator, List

from .wire_types import FaultInfo, FaultSwitch, Flag, JournalAnswer, JournalEntry, PublishedEvent, ScenarioStatus, SessionInfo, TopicFilter

__all__ = ["FaultInfo", "FaultSwitch", "Flag", "Journal", "JournalEntry", "PublishedEvent", "ScenarioStatus", "SessionInfo", "TopicFilter"]


@dataclass(frozen=True)
class Journal:
    """A read of the journal: the ``entries`` (oldest first) and how many the bounded journal
    ``dropped``. Iterating it iterates the entries."""

    entries: List[JournalEntry] = field(default_factory=list)
    dropped: int = 0

    @property
    def last_seq(self) -> int:
        """The seq of the newest entry read, 0 when none: pass it as ``since`` to read on."""
        return max((e["seq"] for e in self.entries), default=0)

    def of_kind(self, *kinds: str) -> List[JournalEntry]:
        """The entries of these kinds."""
        return [e for e in self.entries if e["kind"] in kinds]

    @staticmethod
    def parse(answer: JournalAnswer) -> "Journal":
        """The journal of a ``GET /_emu/journal`` answer."""
        return Journal(list(answer["entries"]), int(answer["dropped"]))

    def __iter__(self) -> Iterator[JournalEntry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)
