"""bwc-emu from Python: start the body worn camera emulator, drive its control API, wait for
sessions and notifications over HTTP, read its grading report. See python/README.md.

    import bwc_emu

    with bwc_emu.start(scenario="io-port") as emu:
        emu.wait_for_session(topic="tns1:Device/tnsvendor:IO/Port")
        emu.publish("tns1:Device/tnsvendor:IO/Port", source={"port": "1"}, data={"state": "1"})
        assert not emu.report(segments="current").errors
"""
from .command import COMMAND_ENV, find_command
from .emulator import UNSET, DeviceRef, Emulator
from .errors import BwcEmuError, ControlError, EmulatorStartError, WaitTimeout
from .launch import start
from .models import FaultInfo, FaultSwitch, Flag, Journal, JournalEntry, PublishedEvent, ScenarioStatus, SessionInfo, TopicFilter
from .ready import Device, DeviceUrls, ReadyDocument
from .report import Finding, Report
from .wire_types import NotificationJournalEntry

__version__ = "0.1.0"

__all__ = [
    "COMMAND_ENV",
    "BwcEmuError",
    "ControlError",
    "Device",
    "DeviceRef",
    "DeviceUrls",
    "Emulator",
    "EmulatorStartError",
    "FaultInfo",
    "FaultSwitch",
    "Finding",
    "Flag",
    "Journal",
    "JournalEntry",
    "NotificationJournalEntry",
    "PublishedEvent",
    "ReadyDocument",
    "Report",
    "ScenarioStatus",
    "SessionInfo",
    "TopicFilter",
    "UNSET",
    "WaitTimeout",
    "find_command",
    "start",
]
