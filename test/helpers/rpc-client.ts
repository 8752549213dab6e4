/** Calls a device's JSON-RPC CGI (featureflag.cgi) with digest auth and decodes the answer. */
import { type DigestRequestOptions, type DigestResult, digestRequest } from './digest-request';
import type { HttpResult } from './http';
import type { DeviceHandle, FlagState, RpcResponse } from '../../src';

/** An HTTP answer whose body was JSON. */
export interface RpcResult extends DigestResult {
  json: RpcResponse & Record<string, unknown>;
}

/** A `listAll` answer: every flag in `data.flags`. */
export type ListAllResponse = RpcResponse & { data: { flags: FlagState[] } };

/** Extra knobs: credentials, a raw body, another content type. */
export type RpcCallOptions = Omit<DigestRequestOptions, 'path' | 'body' | 'method'> & { path?: string };

/** POSTs `body` (an object is JSON-encoded; a string or Buffer is sent as is) to featureflag.cgi. */
export async function callFeatureFlags(
  device: DeviceHandle,
  body: unknown,
  options: RpcCallOptions = {},
): Promise<RpcResult> {
  const path = options.path ?? new URL(device.urls.featureFlags).pathname;
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  const answer = await digestRequest(device.url, {
    ...options,
    method: 'POST',
    path,
    body: raw,
    headers: { 'Content-Type': 'application/json', ...(options.headers ?? {}) },
  });
  return { ...answer, json: parseJson(answer) };
}

/** Decodes a JSON answer, with the body in the error when it is not JSON. */
export function parseJson(answer: HttpResult): RpcResponse & Record<string, unknown> {
  try {
    return JSON.parse(answer.body) as RpcResponse & Record<string, unknown>;
  } catch {
    throw new Error(`expected a JSON body, got HTTP ${answer.status}: ${answer.body}`);
  }
}
