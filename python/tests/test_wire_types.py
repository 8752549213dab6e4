"""The package's wire shapes are the server's: wire_types.py is what python/tools/gen_wire_types.py
makes from the committed OpenAPI document (itself checked current against the zod schemas by
test/unit/control/openapi-file.test.ts), the handle's answers have those shapes, and the package
type-checks against them."""
import copy
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Mapping

import pytest

import bwc_emu
from bwc_emu import wire_types as wire
from bwc_emu.report import FINDING_FIELDS, Finding

from conftest import PYTHON_DIR, REPO

sys.path.insert(0, os.path.join(PYTHON_DIR, "tools"))
import gen_wire_types  # noqa: E402 (python/tools is no package)

MOTION = "tns1:VideoSource/MotionAlarm"


def load_document() -> Any:
    with open(gen_wire_types.DOCUMENT, encoding="utf-8") as file:
        return json.load(file)


def test_wire_types_is_what_the_openapi_document_makes():
    with open(gen_wire_types.TARGET, encoding="utf-8") as file:
        assert file.read() == gen_wire_types.generate(), "python/bwc_emu/wire_types.py is not current: run npm run docs"


def test_a_changed_schema_changes_the_generated_types():
    document = load_document()
    finding = document["components"]["schemas"]["Report"]["properties"]["findings"]["items"]
    finding["properties"]["confidence"] = {"type": "number"}
    finding["required"].append("confidence")
    text = gen_wire_types.Generator(document).module()
    assert "    confidence: float\n" in text and text != gen_wire_types.generate()


def test_a_route_moved_in_the_document_fails_the_generator_loudly():
    document = load_document()
    document["paths"]["/_emu/sessions"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["properties"] = {}
    with pytest.raises(KeyError):
        gen_wire_types.Generator(document).module()


def test_the_check_mode_says_when_the_file_is_stale(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "wire_types.py"
    stale.write_text("# old\n", encoding="utf-8")
    monkeypatch.setattr(gen_wire_types, "TARGET", str(stale))
    assert gen_wire_types.main(["--check"]) == 1 and "not current" in capsys.readouterr().err
    assert gen_wire_types.main([]) == 0 and gen_wire_types.main(["--check"]) == 0


def test_the_public_names_are_the_wire_types():
    assert bwc_emu.SessionInfo is wire.SessionInfo and bwc_emu.Flag is wire.Flag
    assert bwc_emu.FaultInfo is wire.FaultInfo and bwc_emu.PublishedEvent is wire.PublishedEvent
    assert bwc_emu.ScenarioStatus is wire.ScenarioStatus and bwc_emu.TopicFilter is wire.TopicFilter
    assert bwc_emu.JournalEntry is wire.JournalEntry


def test_the_finding_dataclass_reads_every_key_of_the_wire_finding():
    keys = wire.Finding.__required_keys__ | wire.Finding.__optional_keys__
    assert set(FINDING_FIELDS) == keys
    fields = {f for targets in FINDING_FIELDS.values() for f in targets}
    assert fields == set(Finding.__dataclass_fields__) - {"raw"}


def conforms(value: Mapping[str, Any], typed: Any) -> None:
    """The dict has the TypedDict's required keys and no key it does not declare."""
    declared = typed.__required_keys__ | typed.__optional_keys__
    assert typed.__required_keys__ <= set(value), f"{typed.__name__}: missing {typed.__required_keys__ - set(value)}"
    assert set(value) <= declared, f"{typed.__name__}: undeclared {set(value) - declared}"


def entry_type(entry: Mapping[str, Any]) -> Any:
    """The journal entry's TypedDict, by its kind."""
    return getattr(wire, "".join(w.capitalize() for w in str(entry["kind"]).split("-")) + "JournalEntry")


def test_the_emulators_answers_have_the_wire_shapes(bwc_emu: bwc_emu.Emulator):
    from ws_client import subscribe

    ws = subscribe(bwc_emu.device, MOTION)
    try:
        session = bwc_emu.wait_for_session(topic=MOTION)
        since = bwc_emu.journal_seq()
        conforms(session, wire.SessionInfo)
        conforms(bwc_emu.publish(MOTION, source={"VideoSourceConfigurationToken": "1"}, data={"State": "1"})[0], wire.PublishedEvent)
        conforms(bwc_emu.wait_for_notification(topic=MOTION, since=since), wire.NotificationJournalEntry)
    finally:
        ws.close()
    bwc_emu.wait_for_entry("ws-close", since=since)
    for entry in bwc_emu.journal():
        conforms(entry, entry_type(entry))
    conforms(bwc_emu.flags()[0], wire.Flag)
    conforms(bwc_emu.fault_switches()[0], wire.FaultSwitch)
    conforms(bwc_emu.scenario(), wire.ScenarioStatus)
    conforms(bwc_emu.health(), wire.HealthAnswer)
    report = bwc_emu.report()
    conforms(report.raw, wire.Report)
    for finding in report.raw["findings"]:
        conforms(finding, wire.Finding)


def test_a_finding_on_the_wire_parses_into_the_dataclass():
    item: wire.Finding = {
        "rule": "nonce-not-reused",
        "severity": "warning",
        "device": "ACCC8E000001",
        "client": {"remote": "127.0.0.1", "users": ["root"]},
        "message": "m",
        "evidence": [],
        "moreEvidence": 2,
        "fix": "f",
        "segment": {"index": 3, "name": "test_x"},
    }
    finding = Finding.parse(copy.deepcopy(item))
    assert (finding.remote, finding.users, finding.segment_index, finding.segment_name, finding.more_evidence) == (
        "127.0.0.1",
        ["root"],
        3,
        "test_x",
        2,
    )
    assert finding.raw == item


def test_the_package_type_checks_against_the_wire_types():
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("BWC_EMU_REQUIRE_TOOLS") == "1":
            pytest.fail("mypy is missing (Debian: apt-get install mypy)")
        pytest.skip("mypy is missing (Debian: apt-get install mypy)")
    run = subprocess.run(
        [mypy, "--strict", "--python-version", "3.9", "--no-incremental", "--cache-dir", os.devnull, "bwc_emu", "tools"],
        cwd=PYTHON_DIR,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_npm_docs_script_writes_the_wire_types():
    with open(os.path.join(REPO, "package.json"), encoding="utf-8") as file:
        assert "python/tools/gen_wire_types.py" in json.load(file)["scripts"]["docs"]
