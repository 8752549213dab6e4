"""start(): runs bwc-emu on free ports and answers its handle once its ready line is out."""
import os
from typing import List, Mapping, Optional, Sequence, Union

from .command import Command, find_command
from .emulator import Emulator
from .errors import EmulatorStartError
from .process import EmulatorProcess
from .ready import ReadyDocument


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
