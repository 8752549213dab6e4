/** The device's JSON-RPC CGIs, called as any client calls them (featureflag.cgi). */
import { excerpt, httpProblem, jsonOf, tagged } from './http.js';

/**
 * Calls `method` of the CGI at `path`; resolves with `data`. Rejects with the HTTP problem, the
 * device's JSON-RPC error (`error 2105: ...`), or what is wrong with an answer that is neither.
 */
export async function callCgi<T>(path: string, method: string, params?: Record<string, unknown>): Promise<T> {
  const res = await tagged(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: '1.0', context: 'dashboard', method, ...(params ? { params } : {}) }),
  });
  if (!res.ok) throw new Error(await httpProblem(res));
  const answer = await jsonOf(res);
  if (typeof answer === 'object' && answer !== null) {
    const { data, error } = answer as { data?: T; error?: { code?: unknown; message?: unknown } };
    if (error) throw new Error(`error ${String(error.code)}: ${String(error.message)}`);
    if (data !== undefined) return data;
  }
  throw new Error(`answer has neither data nor error: ${excerpt(JSON.stringify(answer) ?? '')}`);
}
