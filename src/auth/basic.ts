/** HTTP Basic authentication (RFC 7617): challenge and verification. */
import type { RefusalCode } from '../base/refusal-codes';
import { type ErrorInfo, fail, ok, type Result } from '../base/result';
import { parseCredentials, quote } from './auth-params';
import { sameSecret } from './same-secret';

/** Why Basic credentials were refused (codes of the one catalogue, base/refusal-codes). */
export type BasicRefusal = ErrorInfo<
  Extract<RefusalCode, 'MALFORMED' | 'WRONG_SCHEME' | 'NOT_BASE64' | 'NO_COLON' | 'UNKNOWN_USER' | 'WRONG_PASSWORD'>
>;

/** Outcome of a Basic check: the user name, or why not. */
export type BasicVerdict = Result<string, BasicRefusal>;

/** The `WWW-Authenticate` value for a realm. */
export function basicChallenge(realm: string): string {
  return `Basic realm=${quote(realm)}`;
}

/** Checks `Authorization: Basic ...` against the account passwords. */
export function verifyBasic(authorization: string, passwordOf: (name: string) => string | undefined): BasicVerdict {
  const parsed = parseCredentials(authorization);
  if (!parsed.ok) return fail('MALFORMED', `malformed Authorization header: ${parsed.error.message}`);
  const { scheme, token68 } = parsed.value;
  if (scheme.toLowerCase() !== 'basic') return fail('WRONG_SCHEME', `scheme ${scheme} is not Basic`);
  if (token68 === undefined) return fail('NOT_BASE64', 'Basic credentials are not base64');
  const decoded = Buffer.from(token68, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return fail('NO_COLON', 'Basic credentials lack a colon');
  const username = decoded.slice(0, colon);
  const password = passwordOf(username);
  // Compared even for an unknown user, so the answer takes as long either way.
  const same = sameSecret(decoded.slice(colon + 1), password ?? '');
  if (password === undefined) return fail('UNKNOWN_USER', `unknown user "${username}"`);
  if (!same) return fail('WRONG_PASSWORD', `wrong password for user "${username}"`);
  return ok(username);
}
