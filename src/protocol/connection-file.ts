/**
 * The connection file a content destination gives to a body worn system (JSON, at
 * most 64 kB): where to authenticate, which certificates to trust, the login. Built
 * by a destination, read as a body worn system does: every field and limit of the
 * reference checked, each problem named by its field. What a real system ignores is
 * a warning, not an error: fields it does not know (the vendor example's installer
 * adds `BlobAPI`), and `PublicKey`/`PublicKeyId` without `WantEncryption` (the
 * installer writes them empty).
 */
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { err, type Err, type ErrorInfo, type Ok } from '../base/result';

/** The connection file's fields, as the reference lists them. */
export interface ConnectionFile {
  ConnectionFileVersion: '1.0';
  SiteName: string;
  ApplicationName: string;
  ApplicationVersion: string;
  ContentDestinationAsNTPServer: boolean;
  /** 1-10 auth URLs (`.../auth/v1.0`), tried in order. */
  AuthenticationTokenURI: string[];
  /** Base64 of PEM certificates to trust for HTTPS. */
  HTTPSCertificate?: string[];
  BlobAPIUserName: string;
  BlobAPIKey: string;
  ContainerType: 'mkv' | 'mp4';
  FullStoreAndReadSupport: boolean;
  WantEncryption: boolean;
  PublicKey?: string;
  PublicKeyId?: string;
}

/** What a destination puts in the connection file it hands out. */
export interface ConnectionFileInput {
  authUrl: string;
  user: string;
  key: string;
  /** PEM certificate of an HTTPS destination. */
  certificate?: string;
  siteName?: string;
  applicationVersion?: string;
}

/** A connection file for a destination; the certificate goes in as base64 of its PEM. */
export function buildConnectionFile(input: ConnectionFileInput): ConnectionFile {
  return {
    ConnectionFileVersion: '1.0',
    SiteName: input.siteName ?? 'bwc-emu',
    ApplicationName: 'bwc-emu content destination',
    ApplicationVersion: input.applicationVersion ?? '1.0',
    ContentDestinationAsNTPServer: false,
    AuthenticationTokenURI: [input.authUrl],
    ...(input.certificate ? { HTTPSCertificate: [pemToBase64(input.certificate)] } : {}),
    BlobAPIUserName: input.user,
    BlobAPIKey: input.key,
    ContainerType: 'mkv',
    FullStoreAndReadSupport: false,
    WantEncryption: false,
  };
}

/** Base64 of a PEM text, as `HTTPSCertificate` holds it. */
export function pemToBase64(pem: string): string {
  return Buffer.from(pem, 'utf8').toString('base64');
}

/** The largest connection file accepted. */
export const MAX_CONNECTION_FILE_BYTES = 64 * 1024;

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .min(1, { error: `${field} must not be empty` })
    .max(max, { error: `${field} is longer than ${max} characters` });

const uri = z
  .string({ error: 'AuthenticationTokenURI entries must be strings' })
  .refine((value) => /^https?:\/\/[^/\s]+/i.test(value) && URL.canParse(value), {
    error: (iss) => `AuthenticationTokenURI "${String(iss.input)}" is not an http(s) URL`,
  });

const certificate = z
  .string({ error: 'HTTPSCertificate entries must be strings' })
  .refine(isBase64Pem, { error: 'HTTPSCertificate entries must be base64 of a PEM certificate' });

const ConnectionFileSchema = z
  .object(
    {
      ConnectionFileVersion: z.literal('1.0', { error: 'ConnectionFileVersion must be "1.0"' }),
      SiteName: text('SiteName', 64),
      ApplicationName: text('ApplicationName', 256),
      ApplicationVersion: text('ApplicationVersion', 128),
      ContentDestinationAsNTPServer: z
        .boolean({ error: 'ContentDestinationAsNTPServer must be true or false' })
        .default(false),
      AuthenticationTokenURI: z
        .array(uri, { error: 'AuthenticationTokenURI must be a list of URLs' })
        .superRefine((list, ctx) => {
          // Counted here, not with min/max, so a value that is not a list gets one message, not two.
          if (list.length === 0)
            ctx.addIssue({ code: 'custom', message: 'AuthenticationTokenURI needs at least 1 URL' });
          if (list.length > 10)
            ctx.addIssue({ code: 'custom', message: 'AuthenticationTokenURI holds at most 10 URLs' });
        }),
      HTTPSCertificate: z
        .array(certificate, { error: 'HTTPSCertificate must be a list of base64 PEM certificates' })
        .optional(),
      BlobAPIUserName: text('BlobAPIUserName', 64),
      BlobAPIKey: text('BlobAPIKey', 64),
      ContainerType: z.enum(['mkv', 'mp4'], { error: 'ContainerType must be "mkv" or "mp4"' }).default('mkv'),
      FullStoreAndReadSupport: z.boolean({ error: 'FullStoreAndReadSupport must be true or false' }).default(false),
      WantEncryption: z.boolean({ error: 'WantEncryption must be true or false' }).default(false),
      PublicKey: z.string({ error: 'PublicKey must be a string' }).optional(),
      PublicKeyId: z.string({ error: 'PublicKeyId must be a string' }).optional(),
    },
    { error: 'a connection file is a JSON object' },
  )
  .superRefine((file, ctx) => {
    if (file.WantEncryption && (!file.PublicKey || !file.PublicKeyId))
      ctx.addIssue({
        code: 'custom',
        message: 'WantEncryption needs PublicKey and PublicKeyId',
        path: ['WantEncryption'],
      });
    if (
      file.HTTPSCertificate?.length &&
      !file.AuthenticationTokenURI.some((u) => u.toLowerCase().startsWith('https:'))
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'HTTPSCertificate is given but no AuthenticationTokenURI uses https',
        path: ['HTTPSCertificate'],
      });
    }
  });

/**
 * Why a connection file is unusable: every problem found (each names its field), and
 * `message` one a line; `warnings` names what would have been ignored (an unknown
 * field may be a misspelt one).
 */
export interface ConnectionFileError extends ErrorInfo<'READ_FAILED' | 'TOO_LARGE' | 'NOT_JSON' | 'INVALID'> {
  readonly errors: string[];
  readonly warnings?: string[];
}

/**
 * A valid connection file with what was ignored in it (`warnings`, each naming its
 * field, to be shown but not to stop anything), or every problem found (each names its field).
 */
export type ConnectionFileResult = (Ok<ConnectionFile> & { readonly warnings: string[] }) | Err<ConnectionFileError>;

/** The fields a connection file has; any other is ignored with a warning. */
const KNOWN_FIELDS: readonly string[] = Object.keys(ConnectionFileSchema.shape);

/** Parses connection file text; `source` names it in messages. Never throws. */
export function parseConnectionFile(content: string, source = 'connection file'): ConnectionFileResult {
  if (Buffer.byteLength(content) > MAX_CONNECTION_FILE_BYTES)
    return connectionFileError('TOO_LARGE', [
      `${source}: ${Buffer.byteLength(content)} bytes; a connection file is at most 64 kB`,
    ]);
  let data: unknown;
  try {
    data = JSON.parse(content.replace(/^\uFEFF/, ''));
  } catch (error) {
    return connectionFileError('NOT_JSON', [`${source}: not JSON: ${(error as Error).message}`]);
  }
  return checkConnectionFile(data, source);
}

/** Checks an already parsed connection file object. */
export function checkConnectionFile(data: unknown, source = 'connection file'): ConnectionFileResult {
  const parsed = ConnectionFileSchema.safeParse(data, { reportInput: true });
  const unknown = isObject(data) ? unknownFields(data).map((warning) => `${source}: ${warning}`) : [];
  if (parsed.success) {
    const { value, ignored } = withoutUnusedKeys(parsed.data);
    return { ok: true, value, warnings: [...unknown, ...ignored.map((warning) => `${source}: ${warning}`)] };
  }
  const invalid = connectionFileError(
    'INVALID',
    parsed.error.issues.map((issue) => {
      const field = issue.path.length ? issue.path.map(String).join('.') : '';
      const message =
        issue.path.length === 1 && 'input' in issue && issue.input === undefined
          ? `${field} is required`
          : issue.message;
      return `${source}: ${field && !message.startsWith(String(issue.path[0])) ? `${field}: ` : ''}${message}`;
    }),
  );
  return unknown.length ? err({ ...invalid.error, warnings: unknown }) : invalid;
}

/** The failure of a connection file with these problems; `message` lists them one a line. */
export function connectionFileError(code: ConnectionFileError['code'], errors: string[]): Err<ConnectionFileError> {
  return err({ code, message: errors.join('\n'), errors });
}

/** The PEM certificates of `HTTPSCertificate`, decoded. */
export function trustedCertificates(file: ConnectionFile): string[] {
  return (file.HTTPSCertificate ?? []).map((entry) => Buffer.from(entry, 'base64').toString('utf8'));
}

/** The fields not in the reference, each named (with the known one it differs from only in case). */
function unknownFields(data: object): string[] {
  const unknown = Object.keys(data).filter((key) => !KNOWN_FIELDS.includes(key));
  if (unknown.length === 0) return [];
  const named = unknown.map((key) => {
    const meant = KNOWN_FIELDS.find((known) => known.toLowerCase() === key.toLowerCase());
    return meant ? `${key} (did you mean ${meant}?)` : key;
  });
  return [`unknown field(s) ignored: ${named.join(', ')}`];
}

/**
 * Without `WantEncryption` the keys mean nothing: they are dropped, silently when
 * empty (as the vendor example's installer writes them), with a warning when not.
 */
function withoutUnusedKeys(file: ConnectionFile): { value: ConnectionFile; ignored: string[] } {
  if (file.WantEncryption || (file.PublicKey === undefined && file.PublicKeyId === undefined))
    return { value: file, ignored: [] };
  const { PublicKey, PublicKeyId, ...value } = file;
  const given = Object.entries({ PublicKey, PublicKeyId }).filter(([, key]) => key);
  const ignored = given.length
    ? [`${given.map(([name]) => name).join(' and ')} ignored: they go only with WantEncryption: true`]
    : [];
  return { value, ignored };
}

function isObject(data: unknown): data is object {
  return typeof data === 'object' && data !== null && !Array.isArray(data);
}

function isBase64Pem(value: string): boolean {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(value)) return false;
  const pem = Buffer.from(value, 'base64').toString('utf8');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return false;
  try {
    new X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}
