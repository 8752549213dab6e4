/**
 * Request bodies for featureflag.cgi: random JSON, requests close to valid with wrong
 * types, valid requests with their text edited, deep nesting, huge numbers, awkward
 * keys (`__proto__`), bytes that are not UTF-8, and bodies a few bytes either side of
 * the size limit.
 */
import fc from 'fast-check';
import { DEFAULT_FLAGS } from '../../src';
import { applyEdits, textEdit } from './text-arbitraries';

/** One body: its bytes, and how it was made (for the tally and messages). */
export interface BodyCase {
  body: Buffer;
  kind: string;
}

const FLAG_NAMES = DEFAULT_FLAGS.map((f) => f.name);
const VALID = [
  { apiVersion: '1.0', context: 'l', method: 'listAll' },
  { apiVersion: '1.0', context: 'g', method: 'get', params: { names: FLAG_NAMES.slice(0, 2) } },
  { apiVersion: '1.0', context: 's', method: 'set', params: { flagValues: { [FLAG_NAMES[0]]: true } } },
  { apiVersion: '1.0', context: 'v', method: 'getSupportedVersions' },
];

const hugeNumber = fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '-0', '1E-400', '0.0000001');
const oddKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', '', 'hasOwnProperty');
const anyJson = fc.jsonValue({ maxDepth: 4 });

const flagName = fc.oneof(fc.constantFrom(...FLAG_NAMES), fc.string({ maxLength: 12 }), oddKey);
const params = fc.oneof(
  fc.record({ names: fc.oneof(fc.array(flagName, { maxLength: 5 }), anyJson) }, { requiredKeys: [] }),
  fc.record(
    { flagValues: fc.oneof(fc.dictionary(flagName, fc.oneof(fc.boolean(), anyJson), { maxKeys: 4 }), anyJson) },
    { requiredKeys: [] },
  ),
  anyJson,
);
const nearlyValid = fc.record(
  {
    apiVersion: fc.oneof(fc.constantFrom('1.0', '1', '1.1', '2.0', '0.1', '1.0.0', '', ' 1.0', '01.0'), anyJson),
    context: fc.oneof(fc.string({ maxLength: 20 }), anyJson),
    method: fc.oneof(
      fc.constantFrom('listAll', 'get', 'set', 'getSupportedVersions', 'LISTALL', 'nope', '__proto__', 'constructor'),
      anyJson,
    ),
    params,
  },
  { requiredKeys: [] },
);

/** `{"apiVersion":...}` text with a raw number spliced in where JSON.stringify cannot write one. */
const withHugeNumber = fc
  .tuple(fc.constantFrom('apiVersion', 'context', 'method', 'params', 'names'), hugeNumber, fc.constantFrom(...VALID))
  .map(([key, number, base]) => JSON.stringify({ ...base, [key]: 0 }).replace(`"${key}":0`, `"${key}":${number}`));

/** `[[[...]]]` or `{"a":{"a":...}}`, nested `depth` deep. */
const deep = fc
  .tuple(fc.integer({ min: 10, max: 20_000 }), fc.boolean(), fc.boolean())
  .map(([depth, arrays, closed]) => {
    const open = arrays ? '['.repeat(depth) : '{"a":'.repeat(depth);
    const inner = arrays ? '' : '1';
    const close = closed ? (arrays ? ']' : '}').repeat(depth) : '';
    return `{"apiVersion":"1.0","method":"listAll","params":${open}${inner}${close}}`;
  });

/** Bodies of `limit - 8` to `limit + 8` bytes (a valid listAll padded). */
function aroundLimit(limit: number): fc.Arbitrary<string> {
  return fc.integer({ min: -8, max: 8 }).map((delta) => {
    const base = '{"apiVersion":"1.0","context":"big","method":"listAll","pad":""}';
    return base.replace('"pad":""', `"pad":"${'x'.repeat(limit + delta - base.length)}"`);
  });
}

/** Every kind of body, for a device whose `maxBodyBytes` is `limit`. */
export function bodyCase(limit: number): fc.Arbitrary<BodyCase> {
  const text =
    (kind: string) =>
    (t: string): BodyCase => ({ body: Buffer.from(t, 'utf8'), kind });
  return fc.oneof(
    { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v)).map(text('random json')) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map(text('random text')) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ body: Buffer.from(bytes), kind: 'random bytes' })),
    },
    { weight: 4, arbitrary: nearlyValid.map((v) => JSON.stringify(v)).map(text('nearly valid')) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...VALID), fc.array(textEdit, { minLength: 1, maxLength: 3 }))
        .map(([v, edits]) => applyEdits(JSON.stringify(v), edits))
        .map(text('edited valid')),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...VALID)
        .map((v) => JSON.stringify(v))
        .map(text('valid')),
    },
    { weight: 1, arbitrary: withHugeNumber.map(text('huge number')) },
    { weight: 1, arbitrary: deep.map(text('deep nesting')) },
    { weight: 1, arbitrary: aroundLimit(limit).map(text('around the limit')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...VALID), oddKey, anyJson)
        .map(([v, key, value]) => JSON.stringify(v).replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(value)},`))
        .map(text('odd key')),
    },
  );
}
