/**
 * Digest requests the way a real client makes them: send without credentials,
 * take the 401's challenges, answer with {@link digestAuthorization}, send again.
 */
import { challengesOf, type HttpRequestOptions, type HttpResult, sendRequest } from './http';
import { type DigestAlgorithm, digestAuthorization } from '../../src';

/** A request plus the credentials and digest knobs to answer the challenge with. */
export interface DigestRequestOptions extends HttpRequestOptions {
  username?: string;
  password?: string;
  /** Answer the challenge of this algorithm (the first offered one otherwise). */
  algorithm?: DigestAlgorithm;
  nc?: number;
  cnonce?: string;
}

/** The final answer and the 401 it answered. */
export interface DigestResult extends HttpResult {
  /** The first answer (the 401 with the challenges). */
  challenge: HttpResult;
  /** The Authorization header that was sent the second time. */
  authorization: string;
}

/**
 * Sends `options` without credentials, expects 401, then again with digest
 * credentials (root / pass by default). Throws when the first answer is not a 401.
 */
export async function digestRequest(baseUrl: string, options: DigestRequestOptions): Promise<DigestResult> {
  const { username = 'root', password = 'pass', algorithm, nc, cnonce, ...request } = options;
  const challenge = await sendRequest(baseUrl, request);
  if (challenge.status !== 401)
    throw new Error(`expected a 401 challenge from ${request.path}, got ${challenge.status}: ${challenge.body}`);
  const method = request.method ?? 'GET';
  const authorization = digestAuthorization(challengesOf(challenge), username, password, method, request.path, {
    algorithm,
    nc,
    cnonce,
  });
  const answer = await sendRequest(baseUrl, {
    ...request,
    headers: { ...(request.headers ?? {}), Authorization: authorization },
  });
  return { ...answer, challenge, authorization };
}

/** The challenges a device sends for `path` (one unauthenticated request). */
export async function fetchChallenges(baseUrl: string, path: string, method = 'GET'): Promise<string[]> {
  const answer = await sendRequest(baseUrl, { method, path });
  if (answer.status !== 401) throw new Error(`expected a 401 challenge from ${path}, got ${answer.status}`);
  return challengesOf(answer);
}
