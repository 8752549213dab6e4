/**
 * The Content-Type of an object stored without one, from its name, as Swift guesses
 * it (Python's `mimetypes` over Debian's /etc/mime.types): `.mkv` is
 * `video/x-matroska`, `.mp4` `video/mp4`, `.json` `application/json`, and a name
 * without a known extension `application/octet-stream`. The table is mime-db's (the
 * `mime-types` package), with the one entry where Debian's table, and so Swift,
 * answers otherwise for a body worn file: `.key` keyfiles are `application/pgp-keys`.
 */
import { lookup } from 'mime-types';

/** Where Swift (Debian's /etc/mime.types) differs from mime-db for names the body worn system sends. */
const SWIFT_OVERRIDES: Readonly<Record<string, string>> = { key: 'application/pgp-keys' };

/** Swift's default when nothing is known about a name. */
export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

/** The type Swift would give an object called `name` (the part after the last `/` counts). */
export function guessContentType(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return DEFAULT_CONTENT_TYPE;
  const extension = base.slice(dot + 1).toLowerCase();
  // mime-types answers `false` for an unknown extension.
  return SWIFT_OVERRIDES[extension] ?? (lookup(extension) || DEFAULT_CONTENT_TYPE);
}
