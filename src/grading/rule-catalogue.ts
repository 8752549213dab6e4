/**
 * The grading rules: what each one looks for in the journal, why it matters, and what to
 * change. docs/grading.md is generated from this table (./grading-doc), and a test fails
 * when a rule has no end-to-end test.
 */

import type { Severity } from '../base/grading-report-shape';

// A rule's severity is one of the report's (../base/grading-report-shape: the one list, worst first).
export type { Severity };

/** One rule as documented. */
export interface RuleInfo {
  readonly severity: Severity;
  /** One line: the client behaviour the rule finds. */
  readonly title: string;
  /** Why it matters on a real device. */
  readonly why: string;
  /** The journal entries the rule reads. */
  readonly evidence: string;
  /** What the client should do instead. */
  readonly fix: string;
}

/** Every rule, by id. */
export const RULES = {
  'token-expired': {
    severity: 'error',
    title: 'A session token was used after it expired',
    why: 'A `wssession.cgi` token is valid for 15 s from issue. A client that fetches it early (at start-up, before a back-off wait) fails every handshake that comes later.',
    evidence:
      '`auth-refused` with code TOKEN_EXPIRED on the event stream, and the `wssession.cgi` request that fetched the token.',
    fix: 'Fetch a token right before each WebSocket connect, never ahead of time.',
  },
  'token-reused': {
    severity: 'error',
    title: 'A session token was used twice',
    why: 'A token opens one stream only. Reusing it on a reconnect makes every reconnect fail.',
    evidence: '`auth-refused` with code TOKEN_REUSED on the event stream.',
    fix: 'Fetch a fresh token for every connect, reconnects included.',
  },
  'token-altered': {
    severity: 'info',
    title: 'A session token came back altered',
    why: 'A device issues its session token as a decimal number of 19 digits, beyond what a double holds exactly (2^53). A client that parses the `wssession.cgi` body as JSON gets a number rounded in its last digits (or printed in exponent form), and one that keeps the quotes of a JSON string sends them too: the device does not know that token, and no stream ever opens. The handshake is refused (`auth-failed` reports that); this note says why.',
    evidence:
      '`auth-refused` with code TOKEN_UNKNOWN on the event stream whose `token` names a token the device issued and still held (the device recognised it quoted, rounded to a double or in exponent form: its `reason` says which), and the `wssession.cgi` request that fetched it.',
    fix: 'Use the body of `wssession.cgi` as text, as it is (trimmed at most): never parse it as JSON or as a number, and URL-encode it into `wssession=`.',
  },
  'auth-failed': {
    severity: 'error',
    title: 'Requests were refused for their credentials',
    why: 'A wrong password, an unknown user, a malformed or forged digest, a scheme the device does not accept or an unknown token: the client cannot work, and many devices lock an account out after repeated failures.',
    evidence:
      '`auth-refused` entries with any code except the normal ones (NO_CREDENTIALS, the first leg of digest; STALE_NONCE; REJECTING during a reboot; the token rules), and whose next try of the same request was refused too, or came later than the recover window (`recoverWithinMs`; a retry that worked is `auth-recovered`).',
    fix: 'Check the credentials and the digest arithmetic (realm, uri, qop, nc, cnonce) against the challenge; stop retrying after a refusal that retrying cannot fix.',
  },
  'auth-recovered': {
    severity: 'info',
    title: 'A request refused for its credentials worked when tried again',
    why: 'A device that rebooted, or a new emulator process, no longer knows the nonce a client kept: the first request is refused and the HTTP library answers the new challenge at once. That is digest working as meant; it is reported so that a team can see it happened.',
    evidence:
      '`auth-refused` entries (any code `auth-failed` counts) whose next try of the same method and path by the same client got past the credentials within the recover window (`recoverWithinMs`).',
    fix: 'Nothing to fix when it is rare. When it happens on every request, look at why the nonce is refused (its lifetime, a clock, a proxy in between).',
  },
  'stale-not-retried': {
    severity: 'error',
    title: 'The client gave up after `stale=true`',
    why: 'A device answers an expired nonce with 401 and `stale=true`: the password was right, only the nonce is old. A client that reports a login failure instead of retrying breaks every time the nonce expires (30 s on some devices).',
    evidence:
      '`auth-refused` with code STALE_NONCE and stale=true, and no successful request for the same path from the client within the retry window.',
    fix: 'On `stale=true`, take the new nonce from the challenge and repeat the request at once, without asking for credentials.',
  },
  'nonce-not-reused': {
    severity: 'warning',
    title: 'Every digest request paid a 401 round trip',
    why: 'A client that never reuses a nonce sends each request twice, doubling the load and the latency on a small device.',
    evidence:
      'Digest-authenticated `http` entries each preceded (within 2 s) by an `auth-refused` NO_CREDENTIALS for the same method and path from the same client.',
    fix: 'Keep the last challenge and answer it with an incremented nc on the next request; start over only on a 401.',
  },
  'reconnect-no-backoff': {
    severity: 'error',
    title: 'Reconnect attempts came without back-off',
    why: 'A rebooting or full device refuses handshakes for tens of seconds; a client retrying in a tight loop floods it and its own logs. Clients written for these devices back off from about 2 s, doubling to a cap of about 30 s.',
    evidence:
      'Runs of refused handshakes (`auth-refused` on the stream or wssession path, `ws-refused`) from one client with no session opened in between; their intervals.',
    fix: 'Wait before each retry, from about 2 s doubling up to about 30 s, and reset the wait after a session works.',
  },
  'no-reconnect': {
    severity: 'error',
    title: 'The client did not come back after the device ended its session',
    why: 'Devices drop sessions (a reboot, a network reset, a slot taken, a slow client): a client that does not reconnect silently stops receiving events.',
    evidence:
      '`ws-close` by the device (or a reboot `fault`), and no `ws-open` from the client within the reconnect window after the device was back.',
    fix: 'Treat every close and error as a reason to reconnect, with back-off, for as long as the client runs.',
  },
  'reconnect-slow': {
    severity: 'warning',
    title: 'The client came back, but later than the reconnect window',
    why: 'Events published meanwhile are lost to the user; a back-off without a cap, or one that is not reset, makes the gap grow.',
    evidence:
      '`ws-close` by the device (or a reboot), and the first `ws-open` from the client after it, later than the window.',
    fix: 'Cap the back-off (about 30 s) and reset it after a working session.',
  },
  'stall-undetected': {
    severity: 'warning',
    title: 'A silent stream (no answer to pings) went unnoticed',
    why: 'Event streams go silent for hours while the TCP connection stays up; clients that do not check that pings are answered keep waiting for events that never come.',
    evidence:
      'A `stall` fault with pings unanswered, and no close or new session from the client within the stall detection window.',
    fix: 'Ping every few seconds and reconnect when a pong does not come back in time.',
  },
  'configure-missing': {
    severity: 'error',
    title: 'A session was opened but never configured',
    why: 'A new session receives nothing until `events:configure`; a reconnect that forgets it looks healthy and receives no event ever again.',
    evidence:
      "`ws-open` with no successful `configure` on that session within the configure window (or before it closed); a session whose configure attempts in the window were refused is left to the refusal's own rule (`invalid-filter`, `message-refused`, `unsupported-api-version`).",
    fix: 'Send `events:configure` with the filters on every new session, reconnects included.',
  },
  'duplicate-subscription': {
    severity: 'warning',
    title: 'Overlapping filters made events arrive twice',
    why: 'The device sends an event once per matching filter and once per session: two filters (or two sessions of one client) selecting the same topic double every event.',
    evidence:
      'The `configure` entries whose filters both select a topic the device publishes, and the duplicated `notification` entries.',
    fix: 'Use one filter per topic and one session per client; merge filters with `|` instead of repeating them.',
  },
  'filter-matches-nothing': {
    severity: 'warning',
    title: 'A filter matches no topic the device publishes',
    why: 'A typo in a topic or a prefix (tnsaxis vs tns1, a missing `//.`) is accepted by the device and then silently delivers nothing.',
    evidence:
      'A successful `configure` whose topic filter matches no topic of the device scenario, its initial states, or any notification in the journal.',
    fix: 'Compare the filter with the topics of `events:getEventDeclarations` (or the scenario); mind the namespace prefix.',
  },
  'invalid-filter': {
    severity: 'error',
    title: 'The device refused an `events:configure`',
    why: 'A refused configure leaves the session receiving nothing; clients often ignore the error answer.',
    evidence: '`configure` entries with an error (its code and message).',
    fix: 'Read the error answer of `events:configure`; fix the filter syntax it names.',
  },
  'concurrent-sessions': {
    severity: 'warning',
    title: 'One client held too many sessions at once',
    why: 'Devices allow 4-8 subscriptions; a client that leaks one on every reconnect takes them all, and other clients (or itself) are refused or evicted.',
    evidence: 'The `ws-open` entries of the sessions one client had open at the same time, at the peak.',
    fix: 'Close the old session before opening a new one; keep one session per device.',
  },
  'slow-consumer': {
    severity: 'error',
    title: 'The device closed a session because the client did not read',
    why: 'A client that reads too slowly makes the device buffer events; past its limit the device closes the session with 1013 and the events are lost.',
    evidence: '`ws-close` by the device with code 1013.',
    fix: 'Read the socket continuously and hand events to a queue; do the slow work elsewhere.',
  },
  'unsupported-api-version': {
    severity: 'error',
    title: 'A request asked for an API version the device does not support',
    why: 'The device answers JSON-RPC error 2100 and does nothing; clients that do not read the error believe the call worked.',
    evidence: '`http` entries answered with JSON-RPC error 2100, and `configure` entries refused with 2100.',
    fix: "Ask `getSupportedVersions` (or API discovery) first and use a version from the device's list.",
  },
  'rpc-error': {
    severity: 'error',
    title: 'The device answered a CGI request with a JSON-RPC error',
    why: 'A CGI answers HTTP 200 with an `error` member (2101 invalid JSON, 2102 unknown method, 2103 missing or 2104 invalid parameter, 2105 not allowed, 2107 too large, 2200 no such flag) and does nothing; a client that reads only the HTTP status believes the call worked (a flag set to the string "true" stays unset).',
    evidence:
      '`http` entries with a JSON-RPC `error` (any CGI, any method but 2100, which `unsupported-api-version` names): the code, the JSON-RPC `method` (`call`) and what the request sent (`body`: its start, secrets redacted).',
    fix: 'Read the `error` member of every answer; send what the method\'s documentation asks (types included: `true`, not `"true"`).',
  },
  'message-refused': {
    severity: 'error',
    title: 'The device refused a message on the event stream',
    why: 'A message the device cannot read as a request (a binary frame, more than `maxMessageBytes`, not JSON, not a JSON-RPC request, an unknown method) is answered with an error and does nothing; when it was meant as the `events:configure`, the session receives nothing.',
    evidence:
      '`message-refused` entries: the code answered (2101 invalid JSON or a binary frame, 2102 unknown method, 2107 too large) or the close code when the device closed the session for a frame it could not read (1009 too big, 1007 invalid UTF-8), and what was sent (its start, secrets redacted).',
    fix: 'Send each request as one JSON text frame, within the size limit (merge filters with `|` instead of listing hundreds); read the error answer.',
  },
  'refused-repeated': {
    severity: 'warning',
    title: 'The client sent a refused request again, unchanged',
    why: 'A request refused for what it says (invalid JSON, an invalid parameter, an invalid filter) is refused every time: repeating it in a loop loads the device and the log and never works.',
    evidence:
      'The same request (same client, method and path, same body or filters or message) refused with the same error more than `maxRefusedRepeats` times after its first refusal: `http` entries with a JSON-RPC error, refused `configure` and `message-refused` entries.',
    fix: 'Do not retry a request the device refused for its content; fix it, or report the error and stop. Retry only what may work later (a 503, a refused login during a reboot), with back-off.',
  },
  polling: {
    severity: 'warning',
    title: 'The client polled a CGI method faster than it needs to',
    why: 'A small device serves every request on the same CPU as its video: a client calling one CGI method many times a second (`listAll` every 50 ms) slows the device down for every client. Events come on the event stream without asking.',
    evidence:
      'The `http` requests of one client to one CGI method (path and JSON-RPC `method`; 401 first legs, requests the client gave up on and token fetches not counted) in the busiest `pollingWindowMs` window, when there were more than `pollingMaxRequests`.',
    fix: 'Subscribe to events instead of polling; read settings once and again only after a change or a reconnect; when polling is unavoidable, every few seconds at most.',
  },
  'token-unused': {
    severity: 'warning',
    title: 'Session tokens were fetched and never used',
    why: 'A `wssession.cgi` token opens one event stream session; a client that fetches one for every message (or on a timer) makes the device issue and keep tokens for nothing, and may hit the pending-token limit (429).',
    evidence:
      "Successful `wssession.cgi` requests whose token no handshake attempt of the same client used (each attempt, a `ws-open` or a refused handshake, even one refused during a reboot, uses the newest token fetched before it), once older than a token's 15 s life, when there were at least `minUnusedTokens`.",
    fix: 'Fetch a token only right before a WebSocket connect, one per connect.',
  },
} as const satisfies Record<string, RuleInfo>;

/** A rule id. */
export type RuleId = keyof typeof RULES;

/** The rule ids in the order of the table. */
export const RULE_IDS = Object.keys(RULES) as RuleId[];
