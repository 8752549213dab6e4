/**
 * Authorization headers for the auth surface: random text, Basic with random or mutated
 * credentials, and valid Digest answers with their parameters mutated (dropped,
 * duplicated, re-valued, huge, re-quoted, renamed) and their text edited. Each case
 * says whether it must be accepted (valid, or changed only in ways RFC 7235 says do
 * not matter: parameter order, name case, scheme case) and what proves the password
 * (a 200 or 101 without that proof is a defect).
 */
import fc from 'fast-check';
import { applyEdits, headerText, longRun, syntaxPiece, textEdit } from './text-arbitraries';

/** One Authorization case. */
export interface AuthCase {
  /** The header values sent, in order (none: no header; two: a repeated header). */
  headers: readonly string[];
  /** True when the credentials are correct and only harmlessly changed: must be accepted. */
  mustAccept: boolean;
  /** What an accepted header must contain: the digest response or the Basic token of the right password. */
  proof: string;
  /** How the case was made, for the tally. */
  kind: string;
}

/** One parameter of a digest answer. */
interface Param {
  name: string;
  value: string;
  quoted: boolean;
}

/** The parameters of a header written by `digestAuthorization` (`Digest a="x", b=y, ...`). */
export function digestParams(header: string): Param[] {
  const body = header.replace(/^Digest /, '');
  return body.split(/, (?=[a-z]+=)/).map((part) => {
    const eq = part.indexOf('=');
    const raw = part.slice(eq + 1);
    const quoted = raw.startsWith('"');
    return { name: part.slice(0, eq), value: quoted ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw, quoted };
  });
}

function serialize(scheme: string, params: readonly Param[]): string {
  const text = params.map((p) =>
    p.quoted ? `${p.name}="${p.value.replace(/(["\\])/g, '\\$1')}"` : `${p.name}=${p.value}`,
  );
  return `${scheme} ${text.join(', ')}`;
}

/** A change to the parameter list; `harmless` ones keep valid credentials valid. */
interface ParamEdit {
  harmless: boolean;
  apply: (params: Param[]) => Param[];
}

const at = (i: number, params: readonly Param[]): number => i % Math.max(1, params.length);

const paramEdit: fc.Arbitrary<ParamEdit> = fc.oneof(
  fc.nat().map((i) => ({ harmless: false, apply: (ps: Param[]) => ps.filter((_, j) => j !== at(i, ps)) })),
  fc.nat().map((i) => ({ harmless: false, apply: (ps: Param[]) => (ps.length ? [...ps, { ...ps[at(i, ps)] }] : ps) })),
  fc.tuple(fc.nat(), fc.oneof(headerText(40), syntaxPiece)).map(([i, value]) => ({
    harmless: false,
    apply: (ps: Param[]) => ps.map((p, j) => (j === at(i, ps) ? { ...p, value } : p)),
  })),
  fc.tuple(fc.nat(), longRun(300, 20_000)).map(([i, value]) => ({
    harmless: false,
    apply: (ps: Param[]) => ps.map((p, j) => (j === at(i, ps) ? { ...p, value } : p)),
  })),
  fc.nat().map((i) => ({
    harmless: false,
    apply: (ps: Param[]) => ps.map((p, j) => (j === at(i, ps) ? { ...p, quoted: !p.quoted } : p)),
  })),
  fc.tuple(fc.nat(), headerText(12)).map(([i, name]) => ({
    harmless: false,
    apply: (ps: Param[]) => ps.map((p, j) => (j === at(i, ps) ? { ...p, name } : p)),
  })),
  fc
    .tuple(fc.constantFrom('algorithm', 'qop', 'nc', 'realm', 'uri', 'opaque', 'userhash', 'charset'), headerText(20))
    .map(([name, value]) => ({
      harmless: false,
      apply: (ps: Param[]) => [...ps.filter((p) => p.name !== name), { name, value, quoted: true }],
    })),
  fc.nat().map((i) => ({
    harmless: true,
    apply: (ps: Param[]) => ps.map((p, j) => (j === at(i, ps) ? { ...p, name: p.name.toUpperCase() } : p)),
  })),
  fc.tuple(fc.nat(), fc.nat()).map(([i, k]) => ({
    harmless: true,
    apply: (ps: Param[]) => {
      const copy = [...ps];
      const [a, b] = [at(i, copy), at(k, copy)];
      [copy[a], copy[b]] = [copy[b], copy[a]];
      return copy;
    },
  })),
);

/** Digest answers built from a valid one: `valid` is the header `digestAuthorization` wrote. */
export function digestCase(valid: string): fc.Arbitrary<AuthCase> {
  const params = digestParams(valid);
  const proof = params.find((p) => p.name === 'response')?.value ?? '';
  return fc
    .tuple(
      fc.array(paramEdit, { maxLength: 3 }),
      fc.constantFrom('Digest', 'Digest', 'Digest', 'digest', 'DIGEST'),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 2, arbitrary: fc.array(textEdit, { maxLength: 2 }) },
      ),
    )
    .map(([edits, scheme, texts]) => {
      const header = applyEdits(
        serialize(
          scheme,
          edits.reduce((ps, e) => e.apply(ps), params),
        ),
        texts,
      );
      const mustAccept = texts.length === 0 && edits.every((e) => e.harmless);
      const kind = mustAccept ? 'digest valid' : texts.length ? 'digest edited text' : 'digest mutated';
      return { headers: [header], mustAccept, proof, kind };
    });
}

/** The Basic token of `user:password`. */
export function basicToken(user: string, password: string): string {
  return Buffer.from(`${user}:${password}`, 'utf8').toString('base64');
}

/** Basic credentials: right, wrong, random, not base64, edited. */
export function basicCase(): fc.Arbitrary<AuthCase> {
  const proof = basicToken('root', 'pass');
  return fc.oneof(
    fc.constantFrom('Basic', 'basic', 'BASIC').map((scheme) => ({
      headers: [`${scheme} ${proof}`],
      mustAccept: true,
      proof,
      kind: 'basic valid',
    })),
    fc
      .tuple(fc.oneof(fc.constant('root'), headerText(20)), fc.oneof(headerText(20), longRun(100, 12_000)))
      .map(([user, password]) => ({
        headers: [`Basic ${basicToken(user, password)}`],
        mustAccept: false,
        proof,
        kind: 'basic random',
      })),
    fc.array(textEdit, { minLength: 1, maxLength: 3 }).map((edits) => ({
      headers: [applyEdits(`Basic ${proof}`, edits)],
      mustAccept: false,
      proof,
      kind: 'basic edited',
    })),
    headerText(60).map((text) => ({ headers: [`Basic ${text}`], mustAccept: false, proof, kind: 'basic not base64' })),
  );
}

/** Anything else: no header, empty, random text, two headers, scheme only. */
export function otherCase(valid: string): fc.Arbitrary<AuthCase> {
  const proof = digestParams(valid).find((p) => p.name === 'response')?.value ?? '';
  return fc.oneof(
    fc.constant<AuthCase>({ headers: [], mustAccept: false, proof, kind: 'no header' }),
    fc.constantFrom('', ' ', 'Digest', 'Basic', 'Digest ,', 'Bearer x', 'Negotiate YII=').map((h) => ({
      headers: [h],
      mustAccept: false,
      proof,
      kind: 'scheme only',
    })),
    headerText(300).map((h) => ({ headers: [h], mustAccept: false, proof, kind: 'random text' })),
    fc
      .array(fc.oneof(syntaxPiece, headerText(6), fc.constantFrom('username=root', 'realm=', 'nonce=', 'qop=auth')), {
        maxLength: 20,
      })
      .map((parts) => ({ headers: [parts.join('')], mustAccept: false, proof, kind: 'random pieces' })),
    fc.tuple(headerText(40), fc.boolean()).map(([h, validFirst]) => ({
      headers: validFirst ? [valid, h] : [h, valid],
      mustAccept: false,
      proof,
      kind: 'two headers',
    })),
  );
}
