/**
 * Who opens an event stream session: the credentials of a handshake, a session token
 * (`?wssession=`) or the Authorization header, checked as the device checks them, or the
 * refusal to answer (journaled as `auth-refused` with a code of base/refusal-codes).
 */
import type { IncomingMessage } from 'node:http';
import { authScheme } from '../auth/auth-params';
import { type Authenticator, type RefusalInfo, REJECTING_MESSAGE } from '../auth/authenticator';
import type { SessionTokens } from '../auth/session-tokens';
import type { ClientVia } from '../base/client-tag';
import { TOKEN_REFUSAL_CODES } from '../base/refusal-codes';
import { err, ok, type Result } from '../base/result';

/** Whose handshake it is. */
export interface HandshakeLogin {
  /** The account's name; undefined with auth `none`. */
  readonly user: string | undefined;
  /** The emulator client whose handshake it is: its header's, else its token's. */
  readonly via: ClientVia | undefined;
  /** The number of the session token that opens the session (the journal names it, never the token). */
  readonly token: number | undefined;
}

/** A refused login, and the scheme the handshake tried (the journal's `scheme`). */
export type LoginRefusal = RefusalInfo & { readonly scheme: string | undefined };

/**
 * Checks the handshake's credentials: while the device refuses logins (a reboot) every one is
 * refused; a session token is used up (with auth on); else the Authorization header decides.
 * `headerVia` is the emulator client its header names, if any.
 */
export function handshakeLogin(
  req: IncomingMessage,
  token: string | null,
  headerVia: ClientVia | undefined,
  { authenticator, tokens }: { authenticator: Authenticator; tokens: SessionTokens },
): Result<HandshakeLogin, LoginRefusal> {
  if (authenticator.rejecting)
    return err({ code: 'REJECTING', message: REJECTING_MESSAGE, stale: false, scheme: schemeOf(req, token) });
  if (authenticator.mode !== 'none' && token !== null) {
    const use = tokens.consume(token);
    if (!use.ok) {
      const { code, message, number } = use.error;
      return err({ code: TOKEN_REFUSAL_CODES[code], message, stale: false, token: number, scheme: 'token' });
    }
    return ok({ user: use.value.username, via: headerVia ?? use.value.via, token: use.value.number });
  }
  const verdict = authenticator.verify(req);
  if (!verdict.ok) return err({ ...verdict.error, scheme: schemeOf(req, null) });
  // Without authentication a token is not used up, but whose it is still tells whose session this is.
  const via = headerVia ?? (token === null ? undefined : tokens.viaOf(token));
  return ok({ user: verdict.value.account?.name, via, token: undefined });
}

/** The scheme a handshake tried: a session token, the Authorization header's scheme, or none. */
function schemeOf(req: IncomingMessage, token: string | null): string | undefined {
  return token !== null ? 'token' : authScheme(req.headers.authorization);
}
