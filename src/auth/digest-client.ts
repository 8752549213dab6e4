/**
 * Client side of HTTP digest authentication: answers a `WWW-Authenticate`
 * challenge. Used by the tests, the body worn system and the recorder.
 */
import { randomBytes } from 'node:crypto';
import { parseChallenges, quote } from './auth-params';
import { type DigestAlgorithm, digestResponse, parseAlgorithm } from './digest-hash';

/** Extra knobs for {@link digestAuthorization}; tests use them to craft edge cases. */
export interface DigestClientOptions {
  /** Nonce count, 1 by default. */
  nc?: number;
  /** Client nonce; random by default. */
  cnonce?: string;
  /** Pick this algorithm among the offered challenges; the first offered one otherwise. */
  algorithm?: DigestAlgorithm;
}

/**
 * Builds an `Authorization` header value answering a digest challenge.
 * `challenge` is a `WWW-Authenticate` value, or all of them (an array); the
 * first Digest challenge with a known (or the requested) algorithm is used.
 * Throws when no usable Digest challenge is present.
 */
export function digestAuthorization(
  challenge: string | readonly string[],
  username: string,
  password: string,
  method: string,
  uri: string,
  options: DigestClientOptions = {},
): string {
  const chosen = pickChallenge(challenge, options.algorithm);
  const nc = (options.nc ?? 1).toString(16).padStart(8, '0');
  const cnonce = options.cnonce ?? randomBytes(8).toString('hex');
  const response = digestResponse({ ...chosen, username, password, method, uri, nc, cnonce, qop: 'auth' });
  const parts = [
    `username=${quote(username)}`,
    `realm=${quote(chosen.realm)}`,
    `nonce=${quote(chosen.nonce)}`,
    `uri=${quote(uri)}`,
    `algorithm=${chosen.algorithm}`,
    `response=${quote(response)}`,
    `qop=auth`,
    `nc=${nc}`,
    `cnonce=${quote(cnonce)}`,
  ];
  if (chosen.opaque !== undefined) parts.push(`opaque=${quote(chosen.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}

interface UsableChallenge {
  realm: string;
  nonce: string;
  algorithm: DigestAlgorithm;
  opaque?: string;
}

function pickChallenge(challenge: string | readonly string[], wanted: DigestAlgorithm | undefined): UsableChallenge {
  const values = typeof challenge === 'string' ? [challenge] : challenge;
  for (const value of values) {
    const parsed = parseChallenges(value);
    if (!parsed.ok) continue;
    for (const { scheme, params } of parsed.value) {
      if (scheme.toLowerCase() !== 'digest') continue;
      const algorithm = parseAlgorithm(params.get('algorithm') ?? 'MD5');
      const realm = params.get('realm');
      const nonce = params.get('nonce');
      if (!algorithm || realm === undefined || nonce === undefined) continue;
      if (wanted && algorithm !== wanted) continue;
      return { realm, nonce, algorithm, opaque: params.get('opaque') };
    }
  }
  throw new Error(`no usable Digest challenge${wanted ? ` for ${wanted}` : ''} in: ${values.join(' | ')}`);
}
