/**
 * The forms a session token can take: `decimal`, as real devices issue it (the vendor's
 * documentation shows `wssession=1331901001644832701`), or `alphanumeric` (32 letters and
 * digits, what the emulator issued before). Each is drawn from cryptographic randomness.
 */
import { type ByteSource, randomString } from '../base/random';

/** Every token form, the device's own first (the default). */
export const SESSION_TOKEN_FORMATS = ['decimal', 'alphanumeric'] as const;

/** How a device writes its session tokens (see {@link SESSION_TOKEN_FORMATS}). */
export type SessionTokenFormat = (typeof SESSION_TOKEN_FORMATS)[number];

/** The form of a device that names none: the real devices'. */
export const DEFAULT_SESSION_TOKEN_FORMAT: SessionTokenFormat = 'decimal';

/** Digits of a decimal token: real devices' length (19, so always beyond 2^53). */
export const DECIMAL_TOKEN_DIGITS = 19;

/** Smallest decimal token: the first with 19 digits (no leading zero). */
const DECIMAL_MIN = 10n ** BigInt(DECIMAL_TOKEN_DIGITS - 1);
/** Mask to 63 bits: a token always fits a signed 64-bit integer, as the device's example does. */
const MASK_63 = (1n << 63n) - 1n;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ALPHANUMERIC_LENGTH = 32;

/**
 * A new token in `format`. Decimal: uniform over [10^18, 2^63 - 1] (rejection sampling of
 * 63-bit draws), so always 19 digits without a leading zero, beyond 2^53 (a client that parses
 * the body as JSON loses precision, as with a real device) and within a signed 64-bit integer
 * (a client that parses it as one works, as with a real device).
 */
export function drawToken(format: SessionTokenFormat, bytes: ByteSource): string {
  if (format === 'alphanumeric') return alphanumericToken(bytes);
  for (;;) {
    const draw = bytes(8);
    const value = new DataView(draw.buffer, draw.byteOffset, 8).getBigUint64(0) & MASK_63;
    if (value >= DECIMAL_MIN) return value.toString();
  }
}

/** 32 letters and digits, never digits only (that would be a decimal token). */
function alphanumericToken(bytes: ByteSource): string {
  const token = randomString(ALPHANUMERIC_LENGTH, ALPHABET, bytes);
  return /^[0-9]+$/.test(token) ? `t${token.slice(1)}` : token;
}

/**
 * How a client sent back a token it was issued, altered: in quotes (the body taken for a JSON
 * string, or quoted once too often), rounded (the body parsed as a JSON number: a double keeps
 * about 16 of 19 digits) or in exponent form (that number printed by a float formatter).
 */
export type TokenAlteration = 'quoted' | 'rounded' | 'exponent';

/** What each alteration looks like, for a refusal's message. */
export const TOKEN_ALTERATIONS: Readonly<Record<TokenAlteration, string>> = Object.freeze({
  quoted: 'in quotes',
  rounded: 'rounded to the precision of a double (the body parsed as a JSON number?)',
  exponent: 'as a number in exponent form (the body parsed as a JSON number?)',
});

/** A number as a client may print one: digits, an optional fraction and exponent. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * The core of what a client sent when it looks like a token altered ({@link alterationOf}
 * compares it with each issued one), or undefined: cheap enough to run on every unknown token.
 */
export function alteredCandidate(sent: string): { core: string; quoted: boolean; value: number } | undefined {
  const trimmed = sent.trim();
  const quoted = /^(["']).*\1$/s.test(trimmed) && trimmed.length >= 2;
  const core = quoted ? trimmed.slice(1, -1) : trimmed;
  const numeric = NUMBER_TEXT.test(core);
  if (!quoted && !numeric) return undefined;
  return { core, quoted, value: numeric ? Number(core) : Number.NaN };
}

/**
 * How `candidate` (from {@link alteredCandidate}) is an altered form of the issued `token`, or
 * undefined when it is not one. Two different decimal tokens round to the same double once in
 * about 2^55 draws: never in practice.
 */
export function alterationOf(
  candidate: { core: string; quoted: boolean; value: number },
  token: string,
): TokenAlteration | undefined {
  if (candidate.core === token) return candidate.quoted ? 'quoted' : undefined;
  if (Number.isNaN(candidate.value) || !/^\d+$/.test(token) || candidate.value !== Number(token)) return undefined;
  return /e/i.test(candidate.core) ? 'exponent' : 'rounded';
}
