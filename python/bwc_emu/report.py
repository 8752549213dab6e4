"""The grading report (``GET /_emu/report``, docs/grading.md): what the client under test did
wrong, as typed findings over the parsed answer."""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional

#: A journal entry as the control API answers it (``seq``, ``kind``, ``time``, ... per kind).
JournalEntry = Dict[str, Any]


@dataclass(frozen=True)
class Finding:
    """One thing a grading rule found: ``severity`` is ``error``, ``warning`` or ``info``."""

    rule: str
    severity: str
    message: str
    fix: str
    device: str
    #: The client's remote address.
    remote: str
    #: The user names it logged in with.
    users: List[str]
    #: The report segment it belongs to (a reset begins one; the pytest fixture names it after the test).
    segment_index: int
    segment_name: str
    #: The journal entries that show it.
    evidence: List[JournalEntry] = field(default_factory=list)
    raw: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"[{self.severity}] {self.rule}: {self.message}\n    fix: {self.fix}"

    @staticmethod
    def parse(item: Mapping[str, Any]) -> "Finding":
        """A finding of the report's ``findings``."""
        client = item.get("client") or {}
        segment = item.get("segment") or {}
        return Finding(
            rule=str(item.get("rule", "")),
            severity=str(item.get("severity", "")),
            message=str(item.get("message", "")),
            fix=str(item.get("fix", "")),
            device=str(item.get("device", "")),
            remote=str(client.get("remote", "")),
            users=[str(u) for u in client.get("users", [])],
            segment_index=int(segment.get("index", 0)),
            segment_name=str(segment.get("name", "")),
            evidence=list(item.get("evidence", [])),
            raw=item,
        )


class Report:
    """A parsed grading report. ``raw`` is the answer as sent (camelCase keys); the properties
    read the parts a test checks. ``bool(report)`` is True when it has no error and no broken
    expectation."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.raw: Mapping[str, Any] = raw
        self.findings: List[Finding] = [Finding.parse(f) for f in raw.get("findings", [])]

    @property
    def summary(self) -> Mapping[str, int]:
        """Counts: ``errors``, ``warnings``, ``infos``, ``expectationsBroken``."""
        return dict(self.raw.get("summary", {}))

    @property
    def errors(self) -> List[Finding]:
        """The findings of severity ``error``."""
        return [f for f in self.findings if f.severity == "error"]

    @property
    def warnings(self) -> List[Finding]:
        """The findings of severity ``warning``."""
        return [f for f in self.findings if f.severity == "warning"]

    @property
    def infos(self) -> List[Finding]:
        """The findings of severity ``info``."""
        return [f for f in self.findings if f.severity == "info"]

    @property
    def expectations(self) -> List[Mapping[str, Any]]:
        """The scenario's ``expect`` steps and how they went (``status``: held, broken, pending)."""
        return list(self.raw.get("expectations", []))

    @property
    def broken_expectations(self) -> List[Mapping[str, Any]]:
        """The expectations whose status is ``broken``."""
        return [e for e in self.expectations if e.get("status") == "broken"]

    @property
    def rules(self) -> List[str]:
        """The ids of the rules applied."""
        return [str(r.get("id")) for r in self.raw.get("rules", [])]

    @property
    def thresholds(self) -> Mapping[str, float]:
        """The thresholds applied."""
        return dict(self.raw.get("thresholds", {}))

    @property
    def segments(self) -> List[Mapping[str, Any]]:
        """The segments covered (``index``, ``name``, ``from``, ``to``, ``ended``, ...)."""
        return list(self.raw.get("segments", []))

    def by_rule(self, rule: str) -> List[Finding]:
        """The findings of one rule."""
        return [f for f in self.findings if f.rule == rule]

    def __bool__(self) -> bool:
        return not self.errors and not self.broken_expectations

    def __repr__(self) -> str:
        s = self.summary
        return (
            f"<Report errors={s.get('errors', 0)} warnings={s.get('warnings', 0)} "
            f"infos={s.get('infos', 0)} expectationsBroken={s.get('expectationsBroken', 0)}>"
        )

    def text(self, segment: Optional[str] = None) -> str:
        """The report as lines a person reads (what the pytest plugin attaches to a failed test)."""
        s = self.summary
        lines = [
            f"{s.get('errors', 0)} error(s), {s.get('warnings', 0)} warning(s), {s.get('infos', 0)} info(s), "
            f"{s.get('expectationsBroken', 0)} broken expectation(s)"
            + (f" in segment {segment!r}" if segment else "")
        ]
        lines += [str(f) for f in self.findings]
        for e in self.broken_expectations:
            lines.append(f"[broken] expect {e.get('name', '')}: {e.get('that', '')} {e.get('topic', '')} within {e.get('withinMs')} ms")
        return "\n".join(lines)
