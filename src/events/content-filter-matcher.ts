/**
 * A content filter's condition tree as closures, built once per filter: evaluating a message
 * then walks no tree and allocates nothing, and a `[@Name='x' and ...]` looks its name up
 * instead of trying every pair.
 */
import type { AttrTest, Cond, ItemTest } from './content-condition';
import type { NotificationMessage } from './notification-message';

/** A compiled condition on a whole message. */
export type MessageTest = (message: NotificationMessage) => boolean;

/** A compiled condition on one name/value pair. */
type PairTest = (name: string, value: string) => boolean;

/** The test of a whole message that `cond` describes. */
export function compileMessageTest(cond: Cond<ItemTest>): MessageTest {
  switch (cond.op) {
    case 'leaf':
      return compileItem(cond.leaf);
    case 'not': {
      const item = compileMessageTest(cond.item);
      return (message) => !item(message);
    }
    case 'all':
      return allOfMessage(cond.items.map(compileMessageTest));
    case 'any':
      return anyOfMessage(cond.items.map(compileMessageTest));
  }
}

/** One `boolean(//...Item[...])`: JSON notifications have only simple items, taken from all three maps. */
function compileItem(item: ItemTest): MessageTest {
  if (item.element) return () => false;
  const pair = compilePairTest(item.attr);
  const name = requiredName(item.attr);
  if (name === undefined)
    return (message) => anyPair(message.source, pair) || anyPair(message.key, pair) || anyPair(message.data, pair);
  return (message) =>
    namedPair(message.source, name, pair) || namedPair(message.key, name, pair) || namedPair(message.data, name, pair);
}

/** The test of one name/value pair that `cond` describes. */
function compilePairTest(cond: Cond<AttrTest>): PairTest {
  switch (cond.op) {
    case 'leaf': {
      const { field, text } = cond.leaf;
      return field === 'name' ? (name) => name === text : (_name, value) => value === text;
    }
    case 'not': {
      const item = compilePairTest(cond.item);
      return (name, value) => !item(name, value);
    }
    case 'all':
      return allOfPair(cond.items.map(compilePairTest));
    case 'any':
      return anyOfPair(cond.items.map(compilePairTest));
  }
}

/** The name a pair must have for `cond` to hold (`@Name='x'`, alone or in an 'and'), if there is one. */
function requiredName(cond: Cond<AttrTest>): string | undefined {
  if (cond.op === 'leaf') return cond.leaf.field === 'name' ? cond.leaf.text : undefined;
  if (cond.op !== 'all') return undefined;
  for (const item of cond.items) if (item.op === 'leaf' && item.leaf.field === 'name') return item.leaf.text;
  return undefined;
}

/** Every test holds (written per arity: rest parameters would allocate per call). */
function allOfMessage(tests: readonly MessageTest[]): MessageTest {
  return (message) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i](message)) return false;
    return true;
  };
}

/** Some test holds. */
function anyOfMessage(tests: readonly MessageTest[]): MessageTest {
  return (message) => {
    for (let i = 0; i < tests.length; i++) if (tests[i](message)) return true;
    return false;
  };
}

/** Every pair test holds. */
function allOfPair(tests: readonly PairTest[]): PairTest {
  return (name, value) => {
    for (let i = 0; i < tests.length; i++) if (!tests[i](name, value)) return false;
    return true;
  };
}

/** Some pair test holds. */
function anyOfPair(tests: readonly PairTest[]): PairTest {
  return (name, value) => {
    for (let i = 0; i < tests.length; i++) if (tests[i](name, value)) return true;
    return false;
  };
}

/** Whether some own name/value pair satisfies `test`; tolerates a missing or non-object map from loose callers. */
function anyPair(record: Readonly<Record<string, string>> | undefined, test: PairTest): boolean {
  if (record === null || typeof record !== 'object') return false;
  for (const name in record) {
    if (Object.hasOwn(record, name) && test(name, record[name])) return true;
  }
  return false;
}

/** Whether the pair named `name` exists and satisfies `test` (exact, case-sensitive, as XPath's '='). */
function namedPair(record: Readonly<Record<string, string>> | undefined, name: string, test: PairTest): boolean {
  if (record === null || typeof record !== 'object' || !Object.hasOwn(record, name)) return false;
  return test(name, record[name]);
}
