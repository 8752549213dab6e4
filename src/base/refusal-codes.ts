/**
 * Why a request or an event stream handshake was refused for its credentials: the one
 * catalogue of the codes an `auth-refused` journal entry carries, each with its meaning.
 * The authenticator, digest, Basic and the session tokens produce them, the journal stores
 * them and the grader matches them, all typed by {@link RefusalCode}: renaming one here is a
 * compile error wherever it is produced or matched.
 */

/** Every credential refusal code, with what it means. */
export const REFUSAL_CODE_MEANINGS = {
  NO_CREDENTIALS: 'no Authorization header (the normal first leg of digest)',
  REJECTING: 'logins are refused for a while (a simulated reboot)',
  THROTTLED: 'too many wrong logins from the address (or address and user): refused unchecked, 429',
  SCHEME_NOT_ACCEPTED: 'the Authorization scheme is not one the auth mode accepts',
  BASIC_OVER_HTTP: 'Basic credentials on plain HTTP in mode both, without basicOverHttp',
  MALFORMED: 'the Authorization header cannot be parsed (or digest nc is not 8 hex digits)',
  WRONG_SCHEME: 'the credentials are of another scheme than the one checking them',
  MISSING_PARAMETER: 'digest: a required parameter is missing',
  UNSUPPORTED: 'digest: an algorithm, qop or userhash the device does not offer',
  WRONG_REALM: 'digest: the realm is not the device realm',
  WRONG_URI: 'digest: the uri is not the request target',
  BAD_NONCE: 'digest: a nonce the device did not issue (or issued before a reboot)',
  UNKNOWN_USER: 'no account of that name',
  WRONG_PASSWORD: 'the password (digest response or Basic password) is wrong',
  STALE_NONCE:
    'digest: a correct answer to an expired nonce, or to one used before where each is accepted once (the 401 says stale=true unless a fault says not)',
  REPLAYED: 'digest: a nonce count already used with this nonce and cnonce (replay protection)',
  REPLAY_LIMIT: 'digest: the account holds its share of remembered requests: wait (429)',
  NOT_BASE64: 'Basic: the credentials are not base64',
  NO_COLON: 'Basic: the decoded credentials lack a colon',
  TOKEN_UNKNOWN: 'event stream: a session token the device never issued (or forgot)',
  TOKEN_EXPIRED: 'event stream: a session token used after its lifetime',
  TOKEN_REUSED: 'event stream: a session token already used once',
} as const;

/** A credential refusal code (see {@link REFUSAL_CODE_MEANINGS}). */
export type RefusalCode = keyof typeof REFUSAL_CODE_MEANINGS;

/** The refusal codes, catalogue order: a non-empty tuple, as `z.enum` takes it. */
export const REFUSAL_CODES = Object.keys(REFUSAL_CODE_MEANINGS) as [RefusalCode, ...RefusalCode[]];

/**
 * The journal's code for each way a session token is refused (the tokens' own lowercase
 * codes, as `consume` answers them): a table, so no code is built from a string.
 */
export const TOKEN_REFUSAL_CODES = {
  unknown: 'TOKEN_UNKNOWN',
  expired: 'TOKEN_EXPIRED',
  reused: 'TOKEN_REUSED',
} as const satisfies Record<string, RefusalCode>;

/** How a session token is refused (see {@link TOKEN_REFUSAL_CODES}). */
export type TokenRefusalKind = keyof typeof TOKEN_REFUSAL_CODES;
