/**
 * The connection file a content destination gives to a body worn system (JSON, at
 * most 64 kB): where to authenticate, which certificates to trust, the login.
 */

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
