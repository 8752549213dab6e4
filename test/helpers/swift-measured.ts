/**
 * What a stock Swift 2.30.1 (Debian bookworm) answered, measured once and kept here so
 * the unit tests of the pure rules and the tests over real sockets check the same facts.
 */

/** Object name -> the Content-Type Swift stored for a PUT without one (then HEAD). */
export const SWIFT_GUESSED_CONTENT_TYPES: ReadonlyArray<readonly [name: string, type: string]> = [
  ['a.mkv', 'video/x-matroska'],
  ['a.mp4', 'video/mp4'],
  ['a.json', 'application/json'],
  ['a.key', 'application/pgp-keys'],
  ['a', 'application/octet-stream'],
  ['bookmark_1_x', 'application/octet-stream'],
  ['a_gpstrail.json', 'application/json'],
  ['a.txt', 'text/plain'],
];
