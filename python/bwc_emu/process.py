"""The emulator's process: started with its output drained by two threads (a full pipe would
stall it), its ready line awaited, stopped with SIGTERM and, after a grace period, killed."""
import collections
import os
import signal
import subprocess
import threading
import time
from typing import IO, Deque, List, Mapping, Optional, Sequence

from .errors import EmulatorStartError
from .ready import READY_PREFIX, ReadyDocument, parse_ready_line

#: How many of the last output lines are kept per stream (for error messages and :meth:`output`).
KEPT_LINES = 200


class EmulatorProcess:
    """A running ``bwc-emu``: :meth:`wait_ready` answers its ready document, :meth:`stop` ends it."""

    def __init__(self, argv: Sequence[str], env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None) -> None:
        self.argv: List[str] = list(argv)
        self.stdout_lines: Deque[str] = collections.deque(maxlen=KEPT_LINES)
        self.stderr_lines: Deque[str] = collections.deque(maxlen=KEPT_LINES)
        self._ready_line: Optional[str] = None
        self._ready = threading.Event()  # set on the ready line, or when stdout ends without one
        self._lock = threading.Lock()
        posix = os.name == "posix"
        try:
            self.popen = subprocess.Popen(
                self.argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=dict(env) if env is not None else None,
                cwd=cwd,
                # its own process group, so stop() also ends what a wrapper (npx) started
                start_new_session=posix,
                creationflags=getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0) if not posix else 0,
            )
        except OSError as error:
            raise EmulatorStartError(f"bwc-emu could not be run ({error}): {' '.join(self.argv)}", self.argv) from error
        assert self.popen.stdout is not None and self.popen.stderr is not None
        self._threads = [
            threading.Thread(target=self._drain, args=(self.popen.stdout, self.stdout_lines, True), daemon=True),
            threading.Thread(target=self._drain, args=(self.popen.stderr, self.stderr_lines, False), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _drain(self, stream: IO[bytes], lines: Deque[str], is_stdout: bool) -> None:
        """Reads a stream to its end, keeping the last lines; on stdout, spots the ready line."""
        try:
            for raw in iter(stream.readline, b""):
                line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
                if is_stdout and self._ready_line is None and line.startswith(READY_PREFIX):
                    self._ready_line = line
                    self._ready.set()
                    continue
                with self._lock:
                    lines.append(line)
        except (OSError, ValueError):
            pass
        finally:
            if is_stdout:
                self._ready.set()

    def output(self, lines: int = 20) -> List[str]:
        """The last lines written, stderr's then stdout's (at most ``lines`` of each)."""
        with self._lock:
            err, out = list(self.stderr_lines)[-lines:], list(self.stdout_lines)[-lines:]
        return err + out

    def wait_ready(self, timeout: float) -> ReadyDocument:
        """The ready document, once the ready line is out; EmulatorStartError if the process ends
        first or ``timeout`` seconds pass (the process is then stopped)."""
        if not self._ready.wait(timeout):
            self.stop()
            raise EmulatorStartError(
                f"bwc-emu printed no ready line within {timeout:g} s: {' '.join(self.argv)}", self.argv, self.output()
            )
        if self._ready_line is None:
            code = self._wait_exit(5.0)
            self.stop()
            raise EmulatorStartError(
                f"bwc-emu exited ({'code %s' % code if code is not None else 'stdout closed'}) before it was ready: "
                f"{' '.join(self.argv)}",
                self.argv,
                self.output(),
            )
        try:
            return parse_ready_line(self._ready_line)
        except ValueError as error:
            self.stop()
            raise EmulatorStartError(f"bwc-emu printed a bad ready line: {error}", self.argv, self.output()) from error

    def _wait_exit(self, timeout: float) -> Optional[int]:
        try:
            return self.popen.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    @property
    def running(self) -> bool:
        """Whether the process has not exited."""
        return self.popen.poll() is None

    def _signal(self, sig: int) -> None:
        try:
            if os.name == "posix":
                os.killpg(self.popen.pid, sig)
            elif sig == signal.SIGTERM:
                self.popen.terminate()
            else:
                self.popen.kill()
        except (ProcessLookupError, PermissionError, OSError):
            pass

    def stop(self, grace: float = 5.0) -> Optional[int]:
        """SIGTERM (to its process group), then SIGKILL after ``grace`` seconds; answers the exit
        code. Safe to call again."""
        if self.popen.poll() is None:
            self._signal(signal.SIGTERM)
            if self._wait_exit(grace) is None:
                self._signal(getattr(signal, "SIGKILL", signal.SIGTERM))
                self._wait_exit(grace)
        deadline = time.monotonic() + 2.0
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        for thread, stream in zip(self._threads, (self.popen.stdout, self.popen.stderr)):
            # a stream still read (a grandchild that left the group holds it) stays open: closing
            # it would wait for that read
            if stream is not None and not thread.is_alive():
                try:
                    stream.close()
                except OSError:
                    pass
        return self.popen.returncode
