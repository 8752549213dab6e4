/**
 * A message from an event stream client, read: refused before it is a configure request (binary,
 * too large, not JSON-RPC, another method), a configure refused at its envelope (its version), or
 * a configure request whose filters are still to compile. Pure: the session answers and journals.
 */
import type { SentFilter } from '../base/sent-filter';
import { parseRpcRequest, RpcErrorCode, type RpcRequest, type RpcResponse } from '../protocol/rpc';
import { EVENT_STREAM_API } from './configure';

/** A filter of a configure request as the client wrote it (its strings only): one shape with the journal's. */
export type { SentFilter };

/** What a client's message is, for the session to answer. */
export type ClientMessage =
  /** Not a configure request at all: refused with `response`, journaled with what was sent. */
  | { kind: 'refused'; binary: boolean; response: RpcResponse }
  /** A configure refused at its envelope: the grader must still see it as a configure. */
  | { kind: 'configure-refused'; filters: SentFilter[]; response: RpcResponse }
  /** A configure request, its filters to compile. */
  | { kind: 'configure'; request: RpcRequest };

/** Reads `data`, a message of at most `maxMessageBytes` (larger ones are answered with 2107). */
export function readClientMessage(data: Buffer, isBinary: boolean, maxMessageBytes: number): ClientMessage {
  if (isBinary)
    return refused(true, {
      apiVersion: '1.0',
      error: {
        code: RpcErrorCode.INVALID_JSON,
        message: 'Invalid JSON: binary frames are not accepted; send JSON as text',
      },
    });
  if (data.length > maxMessageBytes) {
    return refused(false, {
      apiVersion: '1.0',
      error: {
        code: RpcErrorCode.REQUEST_TOO_LARGE,
        message: `Request too large: ${data.length} bytes; the limit is ${maxMessageBytes}`,
      },
    });
  }
  const parsed = parseRpcRequest(data, EVENT_STREAM_API);
  if (parsed.ok) return { kind: 'configure', request: parsed.value };
  const { response, params } = parsed.error;
  // Not a configure request at all (not JSON, no or another method): the message is refused.
  if (response.method === undefined || !EVENT_STREAM_API.methods.includes(response.method))
    return refused(false, response);
  return { kind: 'configure-refused', filters: params ? sentFilters(params) : [], response };
}

/** The string filters of a configure request's `eventFilterList`, as the client sent them, for the journal. */
export function sentFilters(params: Readonly<Record<string, unknown>>): SentFilter[] {
  const list = params.eventFilterList;
  if (!Array.isArray(list)) return [];
  return list.map((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return {};
    const { topicFilter, contentFilter } = entry as Record<string, unknown>;
    return {
      ...(typeof topicFilter === 'string' ? { topicFilter } : {}),
      ...(typeof contentFilter === 'string' ? { contentFilter } : {}),
    };
  });
}

/** A message refused before it was a configure request. */
function refused(binary: boolean, response: RpcResponse): ClientMessage {
  return { kind: 'refused', binary, response };
}
