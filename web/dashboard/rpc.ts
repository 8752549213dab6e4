/** The device's JSON-RPC CGIs, called as any client calls them (featureflag.cgi). */
import { httpProblem, tagged } from './http.js';

/** A JSON-RPC error the device answered with (HTTP 200 carrying `error`). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(`error ${code}: ${message}`);
  }
}

/** Calls `method` of the CGI at `path`; resolves with `data`, rejects with an {@link RpcError} or the HTTP problem. */
export async function callCgi<T>(path: string, method: string, params?: Record<string, unknown>): Promise<T> {
  const res = await tagged(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: '1.0', context: 'dashboard', method, ...(params ? { params } : {}) }),
  });
  if (!res.ok) throw new Error(await httpProblem(res));
  const answer = (await res.json()) as { data?: T; error?: { code: number; message: string } };
  if (answer.error) throw new RpcError(answer.error.code, answer.error.message);
  return answer.data as T;
}
