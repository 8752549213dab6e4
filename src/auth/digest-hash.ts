/**
 * The digest arithmetic of RFC 7616 (and RFC 2617 for MD5), shared by the server
 * and the client side. Pure functions on node:crypto.
 */
import { hashHex } from './quick-hash';

/** Every algorithm RFC 7616 defines. */
export const DIGEST_ALGORITHMS = [
  'MD5',
  'MD5-sess',
  'SHA-256',
  'SHA-256-sess',
  'SHA-512-256',
  'SHA-512-256-sess',
] as const;

/** One digest algorithm name, as written in the `algorithm` parameter. */
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

/** The inputs of a digest `response` computation with qop=auth. */
export interface DigestInputs {
  algorithm: DigestAlgorithm;
  username: string;
  realm: string;
  password: string;
  method: string;
  uri: string;
  nonce: string;
  nc: string;
  cnonce: string;
  qop: 'auth';
}

/** Finds the canonical algorithm name for a parameter value (case-insensitive). */
export function parseAlgorithm(value: string): DigestAlgorithm | undefined {
  const upper = value.toUpperCase();
  return DIGEST_ALGORITHMS.find((a) => a.toUpperCase() === upper);
}

/** Computes the `response` value: H(HA1:nonce:nc:cnonce:qop:HA2). */
export function digestResponse(inputs: DigestInputs): string {
  const ha1 = hashHex(hashOf(inputs.algorithm), `${inputs.username}:${inputs.realm}:${inputs.password}`);
  return responseFromHa1(inputs.algorithm, ha1, inputs);
}

/**
 * The `response` value from the account's HA1 = H(username:realm:password), which a server
 * can keep per account (ha1-cache.ts): the password is hashed once, not on every request.
 */
export function responseFromHa1(
  algorithm: DigestAlgorithm,
  ha1: string,
  inputs: Pick<DigestInputs, 'method' | 'uri' | 'nonce' | 'nc' | 'cnonce' | 'qop'>,
): string {
  const name = hashOf(algorithm);
  const sessionHa1 = algorithm.endsWith('-sess') ? hashHex(name, `${ha1}:${inputs.nonce}:${inputs.cnonce}`) : ha1;
  const ha2 = hashHex(name, `${inputs.method}:${inputs.uri}`);
  return hashHex(name, `${sessionHa1}:${inputs.nonce}:${inputs.nc}:${inputs.cnonce}:${inputs.qop}:${ha2}`);
}

/** The node:crypto hash an algorithm uses (the `-sess` forms use the same). */
export type DigestHashName = (typeof NODE_HASH)[keyof typeof NODE_HASH];

/** The node:crypto name of an algorithm's hash. */
export function hashOf(algorithm: DigestAlgorithm): DigestHashName {
  return NODE_HASH[algorithm];
}

const NODE_HASH = {
  MD5: 'md5',
  'MD5-sess': 'md5',
  'SHA-256': 'sha256',
  'SHA-256-sess': 'sha256',
  'SHA-512-256': 'sha512-256',
  'SHA-512-256-sess': 'sha512-256',
} as const satisfies Record<DigestAlgorithm, string>;
