"""Finding the ``bwc-emu`` command: the one given, ``BWC_EMU_COMMAND``, ``bwc-emu`` on PATH, or npx."""
import os
import shlex
import shutil
from typing import List, Mapping, Optional, Sequence, Tuple, Union

from .errors import EmulatorStartError

#: The environment variable naming the command (split like a shell would: ``node /x/bin/bwc-emu``).
COMMAND_ENV = "BWC_EMU_COMMAND"

#: A command: a string split like a shell would, or the words already split.
Command = Union[str, Sequence[str]]


def _words(command: Command) -> List[str]:
    return shlex.split(command) if isinstance(command, str) else [str(w) for w in command]


def find_command(command: Optional[Command] = None, env: Optional[Mapping[str, str]] = None) -> Tuple[List[str], List[str]]:
    """The command to run and what was tried to find it, in order: ``command`` when given,
    else ``$BWC_EMU_COMMAND``, else ``bwc-emu`` on PATH, else ``npx --no-install bwc-emu``
    (the package installed in the project's node_modules). Raises EmulatorStartError naming
    every place tried when none is there."""
    environ = os.environ if env is None else env
    path = environ.get("PATH")
    tried: List[str] = []
    if command is not None:
        words = _words(command)
        if not words:
            raise EmulatorStartError("bwc-emu: the command given is empty")
        return words, [f"the command given: {shlex.join(words)}"]
    from_env = environ.get(COMMAND_ENV, "").strip()
    if from_env:
        return _words(from_env), [f"${COMMAND_ENV}={from_env}"]
    tried.append(f"${COMMAND_ENV} (not set)")
    found = shutil.which("bwc-emu", path=path)
    if found:
        return [found], tried + [f"bwc-emu on PATH: {found}"]
    tried.append("bwc-emu on PATH (not found)")
    npx = shutil.which("npx", path=path)
    if npx:
        return [npx, "--no-install", "bwc-emu"], tried + [f"npx --no-install bwc-emu ({npx})"]
    tried.append("npx on PATH (not found)")
    raise EmulatorStartError(
        "bwc-emu not found; tried: " + "; ".join(tried) + ". Install it (npm install -D bwc-emu) "
        f"or give the command: start(command='node path/to/bin/bwc-emu'), ${COMMAND_ENV}, "
        "or pytest --bwc-emu-command"
    )
