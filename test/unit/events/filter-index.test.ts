import fc from 'fast-check';
import { compileConfigure, type CompiledFilter, filterMatches } from '../../../src/events/configure';
import type { NotificationMessage } from '../../../src/events/notification-message';
import type { DeviceEvent } from '../../../src/events/event-bus';
import { FilterCache } from '../../../src/events/filter-cache';
import { FilterIndex, type FilterSubscriber } from '../../../src/events/filter-index';
import { propertyRuns } from '../../helpers/fast-check-config';

const RULES = { topicAliases: { onvif: 'tns1' }, maxFilters: 16 };

type Entry = { topicFilter?: string; contentFilter?: string };

function compile(...entries: Entry[]): CompiledFilter[] {
  const compiled = compileConfigure(
    { apiVersion: '1.0', method: 'events:configure', params: { eventFilterList: entries } },
    RULES,
  );
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value;
}

let nextId = 1;
function event(topic: string, message: NotificationMessage = {}): DeviceEvent {
  return {
    id: nextId++,
    topic,
    message,
    timestamp: undefined,
    stateful: false,
    json: '{}',
    payload: Buffer.from('{}'),
  };
}

/** A subscriber that counts what it is handed, per topic. */
class Counting implements FilterSubscriber {
  readonly got: string[] = [];
  onDeliver: (() => void) | undefined;
  deliverMatched(e: DeviceEvent, times: number): void {
    for (let t = 0; t < times; t++) this.got.push(e.topic);
    this.onDeliver?.();
  }
}

describe('FilterIndex', () => {
  it('hands an event only to subscribers whose topic filters select it: exact, subtree, match-all', () => {
    const index = new FilterIndex();
    const exact = new Counting();
    const subtree = new Counting();
    const all = new Counting();
    index.add(exact, compile({ topicFilter: 'tns1:Device/tnsvendor:IO/Port' }));
    index.add(subtree, compile({ topicFilter: 'tns1:Device//.' }));
    index.add(all, compile({ topicFilter: '' }));
    for (const topic of ['tns1:Device/tnsvendor:IO/Port', 'tns1:Device', 'tns1:DeviceX/Y', 'tns1:VideoSource/Motion'])
      index.deliver(event(topic));
    expect(exact.got).toEqual(['tns1:Device/tnsvendor:IO/Port']);
    expect(subtree.got).toEqual(['tns1:Device/tnsvendor:IO/Port', 'tns1:Device']);
    expect(all.got).toHaveLength(4);
  });

  it('sends once per matching filter, duplicates and overlapping filters included', () => {
    const index = new FilterIndex();
    const s = new Counting();
    index.add(s, compile({ topicFilter: 'tns1:A/B' }, { topicFilter: 'tns1:A/B' }, { topicFilter: 'tns1:A//.' }));
    index.deliver(event('tns1:A/B'));
    index.deliver(event('tns1:A/C'));
    expect(s.got).toEqual(['tns1:A/B', 'tns1:A/B', 'tns1:A/B', 'tns1:A/C']);
  });

  it('groups filters that read the same, whatever their spelling or order of alternatives', () => {
    const index = new FilterIndex();
    index.add(new Counting(), compile({ topicFilter: 'tns1:A | tns1:B//.' }));
    index.add(new Counting(), compile({ topicFilter: 'onvif:B//. |  onvif:A' }));
    index.add(new Counting(), compile({ topicFilter: 'tns1:A', contentFilter: "boolean(//SimpleItem[@Name='x'])" }));
    expect(index.size).toBe(2);
  });

  it('evaluates a content filter once per event, however many sessions and groups hold it', () => {
    const index = new FilterIndex();
    const [plain] = compile({ contentFilter: "boolean(//SimpleItem[@Name='port' and @Value='1'])" });
    let calls = 0;
    const content = { ...plain.content!, matches: (m: NotificationMessage) => (calls++, plain.content!.matches(m)) };
    const subscribers = Array.from({ length: 50 }, () => new Counting());
    for (const s of subscribers) index.add(s, [{ topic: undefined, content }]);
    const [withTopic] = compile({ topicFilter: 'tns1:IO' });
    index.add(new Counting(), [{ topic: withTopic.topic, content }]);
    index.deliver(event('tns1:IO', { source: { port: '1' } }));
    index.deliver(event('tns1:IO', { source: { port: '2' } }));
    expect(calls).toBe(2);
    expect(subscribers.every((s) => s.got.length === 1)).toBe(true);
  });

  it('forgets removed subscribers and empty groups, and sees groups added after a topic was looked up', () => {
    const index = new FilterIndex();
    const a = new Counting();
    const b = new Counting();
    const filters = compile({ topicFilter: 'tns1:A' });
    index.add(a, filters);
    index.deliver(event('tns1:A'));
    index.add(b, compile({ topicFilter: 'tns1:A//.' }));
    index.deliver(event('tns1:A'));
    index.remove(a, filters);
    index.deliver(event('tns1:A'));
    expect(a.got).toHaveLength(2);
    expect(b.got).toHaveLength(2);
    index.remove(b, compile({ topicFilter: 'tns1:A//.' }));
    expect(index.size).toBe(0);
    index.deliver(event('tns1:A'));
    expect(b.got).toHaveLength(2);
  });

  it('applies changes made while an event is handed out after it, so nobody is skipped', () => {
    const index = new FilterIndex();
    const filters = compile({ topicFilter: 'tns1:A' });
    const subscribers = Array.from({ length: 5 }, () => new Counting());
    for (const s of subscribers) index.add(s, filters);
    // The first one handed the event takes itself and the next one out, as a closing session does.
    subscribers[0].onDeliver = () => {
      index.remove(subscribers[0], filters);
      index.remove(subscribers[1], filters);
    };
    index.deliver(event('tns1:A'));
    expect(subscribers.map((s) => s.got.length)).toEqual([1, 1, 1, 1, 1]);
    index.deliver(event('tns1:A'));
    expect(subscribers.map((s) => s.got.length)).toEqual([1, 1, 2, 2, 2]);
  });

  it('agrees with evaluating every filter of every session (property)', () => {
    const topics = ['tns1:A', 'tns1:A/B', 'tns1:A/B/C', 'tns1:AB', 'tnsvendor:X/Y', 'tns1:A/C'];
    const topicFilters = ['tns1:A', 'onvif:A//.', 'tns1:A/B//', 'tns1:A/B | tnsvendor:X//.', '', 'tns1:AB | tns1:A/C'];
    const contentFilters = [
      undefined,
      "boolean(//SimpleItem[@Name='k' and @Value='1'])",
      "boolean(//SimpleItem[@Value='2']) or boolean(//SimpleItem[@Name='z'])",
      "not(boolean(//SimpleItem[@Name='k']))",
    ];
    const entry = fc
      .record({ t: fc.constantFrom(...topicFilters, undefined), c: fc.constantFrom(...contentFilters) })
      .filter(({ t, c }) => t !== undefined || c !== undefined)
      .map(({ t, c }): Entry => ({
        ...(t !== undefined ? { topicFilter: t } : {}),
        ...(c ? { contentFilter: c } : {}),
      }));
    const message = fc.record({ source: fc.dictionary(fc.constantFrom('k', 'z'), fc.constantFrom('1', '2')) });
    const step = fc.oneof(
      fc.record({
        op: fc.constant('configure' as const),
        who: fc.nat(5),
        entries: fc.array(entry, { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ op: fc.constant('close' as const), who: fc.nat(5) }),
      fc.record({ op: fc.constant('publish' as const), topic: fc.constantFrom(...topics), message }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const index = new FilterIndex();
        const subscribers = Array.from({ length: 6 }, () => new Counting());
        const held: CompiledFilter[][] = subscribers.map(() => []);
        const expected: string[][] = subscribers.map(() => []);
        const cache = new FilterCache<CompiledFilter>(4);
        for (const s of steps) {
          if (s.op === 'publish') {
            index.deliver(event(s.topic, s.message));
            held.forEach((filters, i) => {
              for (const f of filters) if (filterMatches(f, s.topic, s.message)) expected[i].push(s.topic);
            });
            continue;
          }
          index.remove(subscribers[s.who], held[s.who]);
          held[s.who] = [];
          if (s.op === 'configure') {
            const compiled = compileConfigure(
              { apiVersion: '1.0', method: 'events:configure', params: { eventFilterList: s.entries } },
              { ...RULES, cache },
            );
            if (!compiled.ok) throw new Error(compiled.error.message);
            held[s.who] = compiled.value;
            index.add(subscribers[s.who], compiled.value);
          }
        }
        expect(subscribers.map((s) => [...s.got].sort())).toEqual(expected.map((e) => [...e].sort()));
      }),
      propertyRuns(300),
    );
  });
});

describe('FilterIndex: a filter held by many sessions', () => {
  const filters = compile({ topicFilter: 'tns1:Many' });

  /** What one event hands each subscriber: how many copies. */
  function deliveredTo(index: FilterIndex, subscribers: Counting[]): number[] {
    const before = subscribers.map((s) => s.got.length);
    index.deliver(event('tns1:Many'));
    return subscribers.map((s, i) => s.got.length - before[i]);
  }

  it('removing 20 members in any order hands each event to the remaining ones, as often as they hold it (property)', () => {
    // Session i holds the filter i % 3 + 1 times: each holding is one entry to take away.
    const holdings = Array.from({ length: 20 }, (_, i) => Array.from({ length: (i % 3) + 1 }, () => i)).flat();
    fc.assert(
      fc.property(fc.shuffledSubarray(holdings, { minLength: holdings.length }), (order) => {
        const index = new FilterIndex();
        const subscribers = Array.from({ length: 20 }, () => new Counting());
        const held = subscribers.map((_, i) => (i % 3) + 1);
        subscribers.forEach((s, i) => {
          for (let k = 0; k < held[i]; k++) index.add(s, filters);
        });
        expect(deliveredTo(index, subscribers)).toEqual(held);
        for (const who of order) {
          index.remove(subscribers[who], filters);
          held[who]--;
          expect(deliveredTo(index, subscribers)).toEqual(held);
        }
        expect(index.size).toBe(0);
      }),
      propertyRuns(60),
    );
  });

  it('keeps delivering right as a group grows past 8 members, shrinks below, and grows again', () => {
    const index = new FilterIndex();
    const subscribers = Array.from({ length: 14 }, () => new Counting());
    const held = subscribers.map(() => 0);
    const check = (): void => expect(deliveredTo(index, subscribers)).toEqual(held);
    const add = (i: number): void => {
      index.add(subscribers[i], filters);
      held[i]++;
    };
    const remove = (i: number): void => {
      index.remove(subscribers[i], filters);
      held[i] = Math.max(0, held[i] - 1);
    };
    for (let i = 0; i < 8; i++) add(i);
    check();
    add(8); // the ninth member: past the threshold
    check();
    add(3); // a member already in holds it twice
    add(8);
    check();
    for (const i of [0, 8, 5, 3, 3, 1, 7]) {
      remove(i);
      check();
    }
    remove(13); // never a member: nothing changes
    check();
    expect(held.filter((n) => n > 0)).toHaveLength(4);
    for (let i = 9; i < 14; i++) add(i); // 9 again
    add(0);
    add(8);
    check();
    for (const i of [13, 2, 9, 8, 0, 4, 12, 6, 8, 10, 11]) {
      remove(i);
      check();
    }
    expect(held).toEqual(subscribers.map(() => 0));
    expect(index.size).toBe(0);
  });

  it('agrees with a count of holdings for any adds and removes of 20 sessions (property)', () => {
    const op = fc.record({ add: fc.boolean(), who: fc.nat(19) });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const index = new FilterIndex();
        const subscribers = Array.from({ length: 20 }, () => new Counting());
        const held = subscribers.map(() => 0);
        for (const { add, who } of ops) {
          if (add) {
            index.add(subscribers[who], filters);
            held[who]++;
          } else {
            index.remove(subscribers[who], filters);
            held[who] = Math.max(0, held[who] - 1);
          }
          expect(deliveredTo(index, subscribers)).toEqual(held);
        }
      }),
      propertyRuns(100),
    );
  });
});

describe('FilterCache', () => {
  it('gives configures of the same text the same compiled filter', () => {
    const cache = new FilterCache<CompiledFilter>();
    const configure = (topicFilter: string): CompiledFilter[] => {
      const compiled = compileConfigure(
        { apiVersion: '1.0', method: 'events:configure', params: { eventFilterList: [{ topicFilter }] } },
        { ...RULES, cache },
      );
      if (!compiled.ok) throw new Error(compiled.error.message);
      return compiled.value;
    };
    expect(configure('tns1:A')[0]).toBe(configure('tns1:A')[0]);
    expect(configure('onvif:A')[0]).not.toBe(configure('tns1:A')[0]);
    expect(configure('onvif:A')[0].topic?.source).toBe('onvif:A');
  });

  it('keeps at most its entries and characters, dropping the least recently used', () => {
    const cache = new FilterCache<CompiledFilter>(2, 100);
    const [f] = compile({ topicFilter: 'tns1:A' });
    cache.set('a', f);
    cache.set('b', f);
    cache.get('a');
    cache.set('c', f);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([f, undefined, f]);
    cache.set('x'.repeat(99), f);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(2);
    cache.set('y'.repeat(5000), f);
    expect(cache.get('y'.repeat(5000))).toBeUndefined();
  });
});
