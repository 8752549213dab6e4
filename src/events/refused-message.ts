/**
 * What the journal keeps of an event stream message the device refused (`message-refused`):
 * the answer's code and message, and what was sent, cut and with its secrets redacted. Built
 * only for a refused message: the notifications and the configures that work never pay for it.
 */
import { bodyExcerpt } from '../base/body-excerpt';
import type { DeviceJournalRecord } from '../base/journal';
import type { RpcError } from '../protocol/rpc';

/** WebSocket close code of a protocol error. */
const CLOSE_PROTOCOL_ERROR = 1002;

/** The ws errors (its documented `WS_ERR_*` codes) that close with another code than {@link CLOSE_PROTOCOL_ERROR}. */
const WS_ERROR_CLOSE: Readonly<Record<string, number>> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
  WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH: 1009,
  WS_ERR_INVALID_UTF8: 1007,
};

/** The record of `data`, sent on `session` and answered with `error`. */
export function refusedMessage(session: string, data: Buffer, binary: boolean, error: RpcError): DeviceJournalRecord {
  const { code, message } = error;
  return { kind: 'message-refused', session, code, message, closed: false, binary, sent: bodyExcerpt(data) };
}

/**
 * The record of a frame ws could not read (too big for any message, invalid UTF-8, a protocol
 * error), for which it closes the session with the code of the error; undefined for an error
 * of another kind (the socket failed), which is not the client's message.
 */
export function unreadableFrame(session: string, err: Error): DeviceJournalRecord | undefined {
  const name = (err as Error & { code?: unknown }).code;
  if (typeof name !== 'string' || !name.startsWith('WS_ERR_')) return undefined;
  const code = WS_ERROR_CLOSE[name] ?? CLOSE_PROTOCOL_ERROR;
  return { kind: 'message-refused', session, code, message: err.message, closed: true, binary: false, sent: undefined };
}
