"""The grading report (``GET /_emu/report``, docs/grading.md): what the client under test did
wrong, as findings with snake_case fields and a text over the answer as sent (its shape,
``wire_types.Report``, is generated from the OpenAPI document)."""
from dataclasses import dataclass, field
from typing import List, Mapping, Optional

from . import wire_types as wire
from .wire_types import JournalEntry

#: Where each key of the wire's finding goes in :class:`Finding` (a test checks every key is here).
FINDING_FIELDS: Mapping[str, List[str]] = {
    "rule": ["rule"],
    "severity": ["severity"],
    "message": ["message"],
    "fix": ["fix"],
    "device": ["device"],
    "client": ["remote", "users"],
    "segment": ["segment_index", "segment_name"],
    "evidence": ["evidence"],
    "moreEvidence": ["more_evidence"],
}


@dataclass(frozen=True)
class Finding:
    """One thing a grading rule found: ``severity`` is ``error``, ``warning`` or ``info``."""

    rule: str
    severity: wire.Severity
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
    #: How many more entries show it, left out of ``evidence``.
    more_evidence: int = 0
    #: The finding as sent (camelCase keys); None when built by hand.
    raw: Optional[wire.Finding] = None

    def __str__(self) -> str:
        return f"[{self.severity}] {self.rule}: {self.message}\n    fix: {self.fix}"

    @staticmethod
    def parse(item: wire.Finding) -> "Finding":
        """A finding of the report's ``findings``."""
        return Finding(
            rule=item["rule"],
            severity=item["severity"],
            message=item["message"],
            fix=item["fix"],
            device=item["device"],
            remote=item["client"]["remote"],
            users=list(item["client"]["users"]),
            segment_index=item["segment"]["index"],
            segment_name=item["segment"]["name"],
            evidence=list(item["evidence"]),
            more_evidence=item["moreEvidence"],
            raw=item,
        )


class Report:
    """A parsed grading report. ``raw`` is the answer as sent (camelCase keys); the properties
    read the parts a test checks. ``bool(report)`` is True when it has no error and no broken
    expectation."""

    def __init__(self, raw: wire.Report) -> None:
        self.raw: wire.Report = raw
        self.findings: List[Finding] = [Finding.parse(f) for f in raw["findings"]]

    @property
    def summary(self) -> wire.Summary:
        """Counts: ``errors``, ``warnings``, ``infos``, ``expectationsBroken``."""
        return self.raw["summary"]

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
    def expectations(self) -> List[wire.Expectation]:
        """The scenario's ``expect`` steps and how they went (``status``: held, broken, pending)."""
        return list(self.raw["expectations"])

    @property
    def broken_expectations(self) -> List[wire.Expectation]:
        """The expectations whose status is ``broken``."""
        return [e for e in self.expectations if e["status"] == "broken"]

    @property
    def rules(self) -> List[str]:
        """The ids of the rules applied."""
        return [r["id"] for r in self.raw["rules"]]

    @property
    def thresholds(self) -> wire.Thresholds:
        """The thresholds applied."""
        return self.raw["thresholds"]

    @property
    def segments(self) -> List[wire.ReportSegment]:
        """The segments covered (``index``, ``name``, ``from``, ``to``, ``ended``, ...)."""
        return list(self.raw["segments"])

    def by_rule(self, rule: str) -> List[Finding]:
        """The findings of one rule."""
        return [f for f in self.findings if f.rule == rule]

    def __bool__(self) -> bool:
        return not self.errors and not self.broken_expectations

    def __repr__(self) -> str:
        s = self.summary
        return f"<Report errors={s['errors']} warnings={s['warnings']} infos={s['infos']} expectationsBroken={s['expectationsBroken']}>"

    def text(self, segment: Optional[str] = None) -> str:
        """The report as lines a person reads (what the pytest plugin attaches to a failed test)."""
        s = self.summary
        lines = [
            f"{s['errors']} error(s), {s['warnings']} warning(s), {s['infos']} info(s), "
            f"{s['expectationsBroken']} broken expectation(s)"
            + (f" in segment {segment!r}" if segment else "")
        ]
        lines += [str(f) for f in self.findings]
        for e in self.broken_expectations:
            lines.append(f"[broken] expect {e['name']}: {e['that']} {e.get('topic', '')} within {e['withinMs']} ms")
        return "\n".join(lines)
