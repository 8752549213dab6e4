/** HTTP Basic authentication (RFC 7617): challenge and verification. */
import { timingSafeEqual } from 'node:crypto';
import { parseCredentials, quote } from './auth-params';

/** Outcome of a Basic check. */
export type BasicVerdict = { ok: true; username: string } | { ok: false; reason: string };

/** The `WWW-Authenticate` value for a realm. */
export function basicChallenge(realm: string): string {
  return `Basic realm=${quote(realm)}`;
}

/** Checks `Authorization: Basic ...` against the account passwords. */
export function verifyBasic(authorization: string, passwordOf: (name: string) => string | undefined): BasicVerdict {
  const parsed = parseCredentials(authorization);
  if (!parsed.ok) return { ok: false, reason: `malformed Authorization header: ${parsed.reason}` };
  const { scheme, token68 } = parsed.value;
  if (scheme.toLowerCase() !== 'basic') return { ok: false, reason: `scheme ${scheme} is not Basic` };
  if (token68 === undefined) return { ok: false, reason: 'Basic credentials are not base64' };
  const decoded = Buffer.from(token68, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'Basic credentials lack a colon' };
  const username = decoded.slice(0, colon);
  const given = Buffer.from(decoded.slice(colon + 1), 'utf8');
  const password = passwordOf(username);
  const expected = Buffer.from(password ?? '', 'utf8');
  const same = given.length === expected.length && timingSafeEqual(given, expected);
  if (password === undefined) return { ok: false, reason: `unknown user "${username}"` };
  if (!same) return { ok: false, reason: `wrong password for user "${username}"` };
  return { ok: true, username };
}
