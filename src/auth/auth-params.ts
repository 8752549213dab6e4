/**
 * Parsing of HTTP authentication headers (RFC 7235 `auth-param` lists): the
 * `Authorization: Digest k=v, ...` credentials a server receives and the
 * `WWW-Authenticate` challenges a client receives. Pure and total: every input
 * string gives a result or a reason, never an exception.
 */
import { type ErrorInfo, fail, ok, type Result } from '../base/result';

/** One challenge or credentials: the scheme and its parameters (names lower-cased). */
export interface AuthParams {
  scheme: string;
  params: Map<string, string>;
  /** The token68 form (`Basic dXNlcjpwYXNz`), when the scheme carries one. */
  token68?: string;
}

/** Why a header could not be parsed. */
export type HeaderSyntaxError = ErrorInfo<'MALFORMED'>;

/** Result of parsing: the parsed value, or why it could not be parsed. */
export type ParseResult<T> = Result<T, HeaderSyntaxError>;

/** A run of token characters (RFC 7230 tchar) or token68 characters, matched where `lastIndex` says. */
const TOKEN_RUN = /[!#$%&'*+.^_`|~0-9A-Za-z-]+/y;
const TOKEN68_RUN = /[A-Za-z0-9\-._~+/]+/y;

/** Parses one `Authorization` header value: a scheme and a parameter list or a token68. */
export function parseCredentials(header: string): ParseResult<AuthParams> {
  const all = parseChallenges(header);
  if (!all.ok) return all;
  if (all.value.length !== 1) return malformed(`expected one set of credentials, found ${all.value.length}`);
  return ok(all.value[0]);
}

/**
 * Parses a `WWW-Authenticate` header value, which may hold several challenges
 * separated by commas (`Digest realm="a", nonce="b", Basic realm="a"`).
 */
export function parseChallenges(header: string): ParseResult<AuthParams[]> {
  const reader = new Reader(header);
  const result: AuthParams[] = [];
  reader.skipSpaceAndCommas();
  while (!reader.done()) {
    const scheme = reader.token();
    if (!scheme) return malformed(`expected an auth scheme at column ${reader.pos + 1}`);
    const current: AuthParams = { scheme, params: new Map() };
    result.push(current);
    if (!reader.skipSpaces() && !reader.done() && reader.peek() !== ',') {
      return malformed(`expected a space after "${scheme}"`);
    }
    const token68 = reader.tryToken68();
    if (token68 !== undefined) {
      current.token68 = token68;
      reader.skipSpaces();
      if (!reader.done() && reader.peek() !== ',') return malformed(`unexpected text after ${scheme} credentials`);
      reader.skipSpaceAndCommas();
      continue;
    }
    // auth-param list: name = (token | quoted-string), separated by commas, until the next scheme.
    for (;;) {
      reader.skipSpaceAndCommas();
      if (reader.done()) break;
      const mark = reader.pos;
      const name = reader.token();
      if (!name) return malformed(`expected a parameter name at column ${reader.pos + 1}`);
      reader.skipSpaces();
      if (reader.peek() !== '=') {
        reader.pos = mark; // a new challenge starts here
        break;
      }
      reader.pos++;
      reader.skipSpaces();
      const value = reader.peek() === '"' ? reader.quoted() : reader.token();
      if (value === undefined) return malformed(`bad value for parameter "${name}" (unterminated quote or empty)`);
      const key = name.toLowerCase();
      if (current.params.has(key)) return malformed(`parameter "${key}" given twice`);
      current.params.set(key, value);
      reader.skipSpaces();
      if (!reader.done() && reader.peek() !== ',') return malformed(`expected ',' after parameter "${name}"`);
    }
  }
  if (result.length === 0) return malformed('empty header');
  return ok(result);
}

function malformed(message: string): ParseResult<never> {
  return fail('MALFORMED', message);
}

/** Quotes a value as an RFC 7230 quoted-string. */
export function quote(value: string): string {
  return `"${value.replace(/(["\\])/g, '\\$1')}"`;
}

/** A cursor over the header text. */
class Reader {
  pos = 0;
  constructor(private readonly text: string) {}

  done(): boolean {
    return this.pos >= this.text.length;
  }

  peek(): string {
    return this.text[this.pos] ?? '';
  }

  /** Skips spaces and tabs; true when at least one was skipped. */
  skipSpaces(): boolean {
    const start = this.pos;
    while (this.peek() === ' ' || this.peek() === '\t') this.pos++;
    return this.pos > start;
  }

  skipSpaceAndCommas(): void {
    while (this.peek() === ' ' || this.peek() === '\t' || this.peek() === ',') this.pos++;
  }

  token(): string | undefined {
    const start = this.pos;
    this.pos += this.run(TOKEN_RUN);
    return this.pos > start ? this.text.slice(start, this.pos) : undefined;
  }

  /** Length of the run of `pattern` (a sticky regex) at the cursor; 0 when none. */
  private run(pattern: RegExp): number {
    pattern.lastIndex = this.pos;
    const match = pattern.exec(this.text);
    return match ? match[0].length : 0;
  }

  /**
   * A token68 (`dXNlcjpwYXNz`, `abc==`) stands alone: it is followed by the end or a
   * comma. `realm="x"` is not one, because a value follows its `=`.
   */
  tryToken68(): string | undefined {
    const start = this.pos;
    this.pos += this.run(TOKEN68_RUN);
    const body = this.pos;
    while (this.peek() === '=') this.pos++;
    const candidate = this.text.slice(start, this.pos);
    const save = this.pos;
    this.skipSpaces();
    const standsAlone = this.done() || this.peek() === ',';
    this.pos = save;
    if (body === start || !standsAlone) {
      this.pos = start;
      return undefined;
    }
    return candidate;
  }

  /** Reads a quoted-string with backslash escapes; undefined when unterminated. */
  quoted(): string | undefined {
    this.pos++; // opening quote
    const end = this.text.indexOf('"', this.pos);
    if (end < 0) return undefined;
    const between = this.text.slice(this.pos, end);
    if (!between.includes('\\')) {
      // No escape before the next quote (the usual case): that quote closes the value.
      this.pos = end + 1;
      return between;
    }
    let out = '';
    while (!this.done()) {
      const ch = this.text[this.pos++];
      if (ch === '"') return out;
      if (ch === '\\') {
        if (this.done()) return undefined;
        out += this.text[this.pos++];
      } else {
        out += ch;
      }
    }
    return undefined;
  }
}

/** The scheme of an Authorization header in lower case (`digest`, `basic`, ...); undefined without one. */
export function authScheme(header: string | undefined): string | undefined {
  return header?.trimStart().split(/[ \t]/, 1)[0].toLowerCase() || undefined;
}

/**
 * The user an `Authorization` header names (digest `username`, the name part of Basic),
 * never its password; undefined when there is none or the header does not parse.
 */
export function credentialUser(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const parsed = parseCredentials(header);
  if (!parsed.ok) return undefined;
  const { scheme, params, token68 } = parsed.value;
  if (scheme.toLowerCase() === 'digest') return params.get('username');
  if (scheme.toLowerCase() !== 'basic' || token68 === undefined) return undefined;
  const decoded = Buffer.from(token68, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon > 0 ? decoded.slice(0, colon) : undefined;
}
