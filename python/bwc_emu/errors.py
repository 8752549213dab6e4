"""The errors the package raises: one base class, so a test can catch everything of ours."""
from typing import Any, List, Mapping, Optional, Sequence


class BwcEmuError(Exception):
    """Base class of every error this package raises."""


class EmulatorStartError(BwcEmuError):
    """The emulator could not be started: no command found, it exited, or it never got ready.

    ``command`` is what was run (empty when nothing was found), ``output`` the last lines it
    wrote (stderr first), which the message quotes as well.
    """

    def __init__(self, message: str, command: Sequence[str] = (), output: Sequence[str] = ()) -> None:
        self.command: List[str] = list(command)
        self.output: List[str] = list(output)
        text = message
        if self.output:
            text += "\nlast lines it wrote:\n" + "\n".join("  " + line for line in self.output)
        super().__init__(text)


class ControlError(BwcEmuError):
    """A refusal of the control API: its stable ``code`` (``BAD_REQUEST``, ``FLAG_NOT_FOUND``, ...),
    the HTTP ``status`` and its ``message``.

    A request that got no answer at all (connection refused, socket timeout) has code
    ``NO_ANSWER`` and status 0. ``errors`` carries the scenario errors of ``BAD_SCENARIO``
    (``line``, ``col``, ``message``, ``text``), ``body`` the whole parsed answer.
    """

    def __init__(
        self,
        code: str,
        status: int,
        message: str,
        errors: Optional[List[Mapping[str, Any]]] = None,
        body: Any = None,
    ) -> None:
        self.code = code
        self.status = status
        self.message = message
        self.errors: List[Mapping[str, Any]] = list(errors or [])
        self.body = body
        super().__init__(f"{code} ({status}): {message}" if status else f"{code}: {message}")


class WaitTimeout(ControlError, TimeoutError):
    """A wait ended without what it waited for (408 ``TIMEOUT``); the message says what was seen.

    Also a :class:`TimeoutError`, so ``except TimeoutError`` catches it.
    """
