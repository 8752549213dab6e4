/** Option name checks: one `BAD_OPTION` naming every unknown name, with where it belongs or what it is close to. */
import { closestName, editDistance } from '../../../src/base/closest-name';
import { checkOptionNames, type OptionNames } from '../../../src/base/option-checks';

interface Outer {
  speed?: number;
  inner?: Inner;
}
interface Inner {
  port?: number;
  auth?: string;
}
const OUTER = { speed: true, inner: true } as const satisfies OptionNames<Outer>;
const INNER = { port: true, auth: true } as const satisfies OptionNames<Inner>;

/** The message `checkOptionNames` throws, or `passes`. */
function messageOf(given: unknown, at?: string): string {
  try {
    checkOptionNames(given, at ? INNER : OUTER, { where: 'start', at, home: { under: 'inner', names: INNER } });
    return 'passes';
  } catch (err) {
    return `${(err as { code: string }).code}: ${(err as Error).message}`;
  }
}

it('passes known names and an absent object', () => {
  expect(messageOf({ speed: 1, inner: {} })).toBe('passes');
  expect(messageOf(undefined)).toBe('passes');
  expect(messageOf({ port: 1 }, 'inner')).toBe('passes');
});

it('names misplaced options with their values as they go one level down', () => {
  expect(messageOf({ port: 0, auth: "it's" })).toBe(
    "BAD_OPTION: start: unknown options port, auth: they are inner options; pass them as { inner: { port: 0, auth: 'it\\'s' } }",
  );
  expect(messageOf({ auth: ['x'], spede: 1 })).toBe(
    'BAD_OPTION: start: unknown options auth, spede: auth is an inner option; pass it as { inner: { auth: [...] } }; spede: did you mean speed?',
  );
});

it('suggests close names, else lists the known ones, and refuses a non-object', () => {
  expect(messageOf({ Speed: 1 })).toBe('BAD_OPTION: start: unknown option Speed: did you mean speed?');
  expect(messageOf({ prt: 1 })).toBe('BAD_OPTION: start: unknown option prt: did you mean inner.port?');
  expect(messageOf({ colour: 1 }, 'inner')).toBe(
    'BAD_OPTION: start: unknown option inner.colour: the inner options are port, auth',
  );
  expect(messageOf(5)).toBe('BAD_OPTION: start: options must be an object, not 5');
  expect(messageOf(null, 'inner')).toBe('BAD_OPTION: start: inner must be an object, not null');
});

it('measures edit distance and picks the closest name within two edits', () => {
  expect(editDistance('kitten', 'sitting')).toBe(3);
  expect(editDistance('', 'abc')).toBe(3);
  expect(closestName('sped', ['seed', 'speed'])).toBe('seed');
  expect(closestName('speeed', ['seed', 'speed'])).toBe('speed');
  expect(closestName('sped', ['speed', 'seed'])).toBe('speed');
  expect(closestName('colour', ['port', 'auth'])).toBeUndefined();
});
