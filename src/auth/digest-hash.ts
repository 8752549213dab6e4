/**
 * The digest arithmetic of RFC 7616 (and RFC 2617 for MD5), shared by the server
 * and the client side. Pure functions on node:crypto.
 */
import { createHash } from 'node:crypto';

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
  const hash = hasher(inputs.algorithm);
  let ha1 = hash(`${inputs.username}:${inputs.realm}:${inputs.password}`);
  if (inputs.algorithm.endsWith('-sess')) ha1 = hash(`${ha1}:${inputs.nonce}:${inputs.cnonce}`);
  const ha2 = hash(`${inputs.method}:${inputs.uri}`);
  return hash(`${ha1}:${inputs.nonce}:${inputs.nc}:${inputs.cnonce}:${inputs.qop}:${ha2}`);
}

/** The hex digest function for an algorithm (the `-sess` forms use the same hash). */
export function hasher(algorithm: DigestAlgorithm): (text: string) => string {
  const name = NODE_HASH[algorithm.replace(/-sess$/, '') as 'MD5' | 'SHA-256' | 'SHA-512-256'];
  return (text) => createHash(name).update(text, 'utf8').digest('hex');
}

const NODE_HASH = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' } as const;
