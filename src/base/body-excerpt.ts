/**
 * What the journal keeps of a refused request: its size and its start as text, with secrets
 * redacted, so that a finding can show what was sent ("2101 Invalid JSON: ...") without ever
 * keeping a password or a token. Only refused requests pay for it: an answered request's body
 * is never read here.
 */
import { z } from 'zod';

/** Characters of a body an excerpt keeps at most. */
export const MAX_EXCERPT_CHARS = 512;

/** What stands in for a secret. */
export const REDACTED = '[redacted]';

/** What was sent, as the journal keeps it (and the control API answers it). */
export const BodyExcerptSchema = z.object({
  /** The whole body's (or message's) size in bytes. */
  bytes: z.number().int().meta({ description: 'the whole size in bytes' }),
  /**
   * Its start as UTF-8 text, at most {@link MAX_EXCERPT_CHARS} characters (an `…` at the end
   * marks a cut), with the value of every field whose name looks like a secret redacted.
   */
  text: z.string().meta({
    description: `the start as UTF-8 text (at most ${MAX_EXCERPT_CHARS} characters, \`…\` marks a cut), secret-looking values redacted`,
  }),
});

/** What was sent, as the journal keeps it. */
export type BodyExcerpt = Readonly<z.output<typeof BodyExcerptSchema>>;

/**
 * Bytes read before redacting: more than the excerpt keeps, so that a field whose name starts
 * inside the kept text is redacted whole (a secret value is never cut before it is censored).
 */
const READ_BYTES = MAX_EXCERPT_CHARS * 4;

/** A field name that says its value is a secret: password, passwd, secret, token, apiKey, wssession, auth... */
const SECRET_NAME = String.raw`[\w.-]*(?:pass|pwd|secret|token|key|session|auth|credential|cookie)[\w.-]*`;

/**
 * A value after `:` or `=`: credentials with their scheme (an Authorization header), a quoted
 * string (its closing quote may be cut off), a flat list or object, or a bare word up to a separator.
 */
const VALUE = String.raw`(?:Basic|Bearer|Digest)\s+[^\r\n]*|"(?:[^"\\]|\\.)*(?:"|\\?$)|'(?:[^'\\]|\\.)*(?:'|\\?$)|\[[^\]]*(?:\]|$)|\{[^}]*(?:\}|$)|[^\s,;&}\]]+`;

/**
 * `"password": "x"`, `'token': 'x'`, `apiKey: x`, `password=x&...`: the name (quoted or not,
 * the same quote on both sides), the separator, the value.
 */
const SECRET_FIELD = new RegExp(String.raw`(["']?)\b(${SECRET_NAME})\1(\s*[:=]\s*)(${VALUE})`, 'gi');

/** Credentials written as an Authorization header value. */
const AUTH_SCHEME = /\b(Basic|Bearer)\s+[\w+/=.~-]+|\bDigest\s+[^\r\n]*/gi;

/** Control characters (but tab, line feed and carriage return): shown as U+FFFD. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** `text` with the value of every secret-looking field, and any credentials of an Authorization value, censored. */
export function redactSecrets(text: string): string {
  return text
    .replace(SECRET_FIELD, (_match, quote: string, name: string, separator: string, value: string) => {
      const quoted = value.startsWith('"') || value.startsWith("'") ? value[0] : '';
      return `${quote}${name}${quote}${separator}${quoted}${REDACTED}${quoted}`;
    })
    .replace(AUTH_SCHEME, (match: string) => `${match.split(/\s/, 1)[0]} ${REDACTED}`);
}

/** The excerpt of `data` (a request body, a WebSocket message) that the journal keeps. */
export function bodyExcerpt(data: Buffer): BodyExcerpt {
  const read = data.subarray(0, READ_BYTES).toString('utf8');
  const text = redactSecrets(read).replace(CONTROL, '\ufffd');
  const cut = text.length > MAX_EXCERPT_CHARS || data.length > READ_BYTES;
  return { bytes: data.length, text: cut ? `${text.slice(0, MAX_EXCERPT_CHARS)}…` : text };
}
