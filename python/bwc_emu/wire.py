"""One JSON request to the control API over http.client: no proxy (the emulator is local), the
refusal ``{"error": {"code", "message"}}`` raised as :class:`ControlError`."""
import http.client
import json
import socket
import ssl
import urllib.parse
from typing import Any, Mapping, Optional, Sequence, Tuple, Union

from .errors import ControlError, WaitTimeout

#: A query value: one value, several (the parameter repeated), or None (left out).
QueryValue = Union[str, int, float, bool, Sequence[str], None]


def encode_query(query: Optional[Mapping[str, QueryValue]]) -> str:
    """``?a=1&b=x`` from the values that are not None (booleans as ``true``/``false``)."""
    pairs = []
    for name, value in (query or {}).items():
        if value is None:
            continue
        values = [value] if isinstance(value, (str, int, float, bool)) else list(value)
        for v in values:
            pairs.append((name, ("true" if v else "false") if isinstance(v, bool) else str(v)))
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""


def _refusal(status: int, body: Any, text: str, url: str) -> ControlError:
    """The error of a refused request, from its ``{"error": ...}`` body when it has one."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and "code" in error:
        kind = WaitTimeout if status == 408 else ControlError
        return kind(str(error["code"]), status, str(error.get("message", "")), error.get("errors"), body)
    return ControlError("HTTP_ERROR", status, f"{url} answered {status}: {text[:300]}", body=body)


def request_json(
    method: str,
    url: str,
    query: Optional[Mapping[str, QueryValue]] = None,
    body: Any = None,
    timeout: float = 30.0,
    token: Optional[str] = None,
    ssl_context: Optional[ssl.SSLContext] = None,
    raw_body: Optional[Tuple[bytes, str]] = None,
) -> Any:
    """Sends the request and answers the parsed JSON (None for an empty answer, e.g. 204).

    ``body`` is sent as JSON; ``raw_body`` as (bytes, content type) instead. Raises
    ControlError for a status of 400 or more (WaitTimeout for 408) and for no answer at all.
    """
    parts = urllib.parse.urlsplit(url)
    target = (parts.path or "/") + encode_query(query)
    headers = {"Accept": "application/json"}
    data: Optional[bytes] = None
    if raw_body is not None:
        data, headers["Content-Type"] = raw_body
    elif body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection: http.client.HTTPConnection
    if parts.scheme == "https":
        context = ssl_context or ssl._create_unverified_context()  # the emulator's own self-signed certificate
        connection = http.client.HTTPSConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout, context=context)
    else:
        connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=timeout)
    try:
        connection.request(method, target, body=data, headers=headers)
        answer = connection.getresponse()
        status = answer.status
        text = answer.read().decode("utf-8", errors="replace")
    except (OSError, http.client.HTTPException) as error:
        reason = "no answer within %.1f s" % timeout if isinstance(error, socket.timeout) else str(error) or type(error).__name__
        raise ControlError("NO_ANSWER", 0, f"{method} {url}: {reason}") from error
    finally:
        connection.close()
    try:
        parsed = json.loads(text) if text.strip() else None
    except ValueError:
        parsed = None
        if status < 400:
            raise ControlError("BAD_ANSWER", status, f"{method} {url} answered no JSON: {text[:300]}") from None
    if status >= 400:
        raise _refusal(status, parsed, text, f"{method} {url}")
    return parsed
