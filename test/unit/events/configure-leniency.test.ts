/**
 * `events:configure` leniency: empty filter strings, unknown keys. One client library
 * marshals `"contentFilter": ""` on every entry (and `channelFilter` in params); real
 * devices accept it, so the emulator must too, without changing what the filters select.
 */
import fc from 'fast-check';
import {
  compileConfigure,
  type CompiledFilter,
  type ConfigureNote,
  type ConfigureResult,
  type ConfigureRules,
  DEFAULT_MAX_FILTERS,
  filterMatches,
  isBlankFilter,
} from '../../../src/events/configure';
import type { NotificationMessage } from '../../../src/events/notification-message';
import { DEFAULT_TOPIC_ALIASES } from '../../../src/events/topic-filter';
import { RpcErrorCode, type RpcRequest } from '../../../src/protocol/rpc';
import { propertyRuns } from '../../helpers/fast-check-config';

const RULES: ConfigureRules = { topicAliases: DEFAULT_TOPIC_ALIASES, maxFilters: DEFAULT_MAX_FILTERS };
const PORT = 'tns1:Device/tnsvendor:IO/Port';
const MOTION = 'tns1:RuleEngine/MotionRegionDetector/Motion';
const PORT1 = "boolean(//SimpleItem[@Name='port' and @Value='1'])";

interface Noted {
  message: string;
  fields: Readonly<Record<string, unknown>>;
}

function configure(params: Record<string, unknown>, notes: Noted[] = []): ConfigureResult {
  const request: RpcRequest = { apiVersion: '1.0', method: 'events:configure', params };
  const note: ConfigureNote = (message, fields) => notes.push({ message, fields });
  return compileConfigure(request, RULES, note);
}

function compiled(eventFilterList: unknown, notes: Noted[] = []): CompiledFilter[] {
  const result = configure({ eventFilterList }, notes);
  if (!result.ok) throw new Error(`expected the filters to compile: ${result.error.code} ${result.error.message}`);
  return result.value;
}

/** The effective filter as a session reports it (`info().filters`). */
function effective(f: CompiledFilter): { topicFilter?: string; contentFilter?: string } {
  return {
    ...(f.topic ? { topicFilter: f.topic.source } : {}),
    ...(f.content ? { contentFilter: f.content.source } : {}),
  };
}

const port1: NotificationMessage = { source: { port: '1' }, key: {}, data: { state: '1' } };
const port2: NotificationMessage = { source: { port: '2' }, key: {}, data: { state: '1' } };

describe('empty filter strings', () => {
  it('an empty contentFilter next to a topicFilter counts as absent', () => {
    const notes: Noted[] = [];
    const [f] = compiled([{ topicFilter: PORT, contentFilter: '' }], notes);
    expect(effective(f)).toEqual({ topicFilter: PORT });
    expect(filterMatches(f, PORT, port2)).toBe(true);
    expect(filterMatches(f, MOTION, port1)).toBe(false);
    expect(notes).toEqual([
      {
        message: 'events:configure: empty filter next to a non-empty one ignored',
        fields: { entry: 0, keys: ['contentFilter'] },
      },
    ]);
  });

  it('an empty topicFilter next to a contentFilter counts as absent', () => {
    const [f] = compiled([{ topicFilter: '', contentFilter: PORT1 }]);
    expect(effective(f)).toEqual({ contentFilter: PORT1 });
    expect(filterMatches(f, MOTION, port1)).toBe(true);
    expect(filterMatches(f, PORT, port2)).toBe(false);
  });

  it.each([
    ['topicFilter "" alone', { topicFilter: '' }, ''],
    ['topicFilter "  " alone', { topicFilter: '  ' }, '  '],
    ['contentFilter "" alone', { contentFilter: '' }, ''],
    ['contentFilter " \\t" alone', { contentFilter: ' \t' }, ''],
    ['both empty', { topicFilter: '', contentFilter: '' }, ''],
    ['both empty, with channelFilter', { topicFilter: '', contentFilter: '', channelFilter: null }, ''],
  ])('%s selects every event, reported as the match-all topic filter', (_name, entry, source) => {
    const [f] = compiled([entry]);
    expect(f.topic?.matchesAll).toBe(true);
    expect(f.content).toBeUndefined();
    expect(effective(f)).toEqual({ topicFilter: source });
    expect(filterMatches(f, MOTION, {})).toBe(true);
    expect(filterMatches(f, PORT, port2)).toBe(true);
  });

  it('says when an empty contentFilter alone selects every event', () => {
    const notes: Noted[] = [];
    compiled([{ topicFilter: PORT }, { contentFilter: '' }], notes);
    expect(notes).toEqual([{ message: 'events:configure: empty filter selects every event', fields: { entry: 1 } }]);
  });

  it('a wrongly typed filter is still 2104, even next to an empty one', () => {
    for (const entry of [
      { topicFilter: 5, contentFilter: '' },
      { topicFilter: '', contentFilter: null },
      { topicFilter: PORT, contentFilter: false },
    ]) {
      const result = configure({ eventFilterList: [entry] });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe(RpcErrorCode.INVALID_PARAMETER);
    }
  });

  it('a bad non-empty filter next to an empty one is still 2104 with its column', () => {
    const result = configure({ eventFilterList: [{ topicFilter: 'tns1:Device/|', contentFilter: '' }] });
    expect(result).toEqual({
      ok: false,
      error: { code: 2104, message: expect.stringMatching(/eventFilterList\[0\]\.topicFilter: .*column 13/) as string },
    });
    const content = configure({ eventFilterList: [{ topicFilter: '', contentFilter: 'boolean(' }] });
    expect(content).toEqual({
      ok: false,
      error: {
        code: 2104,
        message: expect.stringMatching(/eventFilterList\[0\]\.contentFilter: .*column 9/) as string,
      },
    });
  });

  it('isBlankFilter: empty and XML whitespace only; U+00A0 is not blank', () => {
    expect(['', ' ', '\t\r\n '].map(isBlankFilter)).toEqual([true, true, true]);
    expect(['x', ' x ', '\u00a0', '//.'].map(isBlankFilter)).toEqual([false, false, false, false]);
  });
});

describe('unknown keys', () => {
  it('ignores channelFilter and other keys of an entry, and says so', () => {
    const notes: Noted[] = [];
    const [f] = compiled([{ topicFilter: PORT, contentFilter: '', channelFilter: ['1'], comment: 'x' }], notes);
    expect(effective(f)).toEqual({ topicFilter: PORT });
    expect(notes[0]).toEqual({
      message: 'events:configure: unknown filter keys ignored',
      fields: { entry: 0, keys: ['channelFilter', 'comment'] },
    });
  });

  it('ignores channelFilter in params, and says so', () => {
    const notes: Noted[] = [];
    const result = configure(
      { eventFilterList: [{ topicFilter: PORT, contentFilter: '' }], channelFilter: null },
      notes,
    );
    expect(result.ok).toBe(true);
    expect(notes[0]).toEqual({
      message: 'events:configure: unknown params ignored',
      fields: { keys: ['channelFilter'] },
    });
  });

  it('an entry with only unknown keys is still 2103', () => {
    const result = configure({ eventFilterList: [{ channelFilter: [] }] });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe(RpcErrorCode.PARAMETER_MISSING);
  });

  it('works without a note callback', () => {
    const request: RpcRequest = {
      apiVersion: '1.0',
      method: 'events:configure',
      params: { eventFilterList: [{ topicFilter: PORT, x: 1 }], y: 2 },
    };
    expect(compileConfigure(request, RULES).ok).toBe(true);
  });
});

describe('properties', () => {
  const TOPICS = [
    PORT,
    MOTION,
    'tns1:Device/tnsvendor:IO/VirtualInput',
    'tns1:Device/tnsvendor:Status/SystemReady',
    'tns1:VideoSource/MotionAlarm',
  ];
  const topicFilter = fc.constantFrom(
    PORT,
    'tns1:Device//.',
    'onvif:Device/tnsvendor:IO//',
    `${MOTION} | tns1:VideoSource/MotionAlarm`,
    'tns1:Nothing',
    '//.',
  );
  const contentFilter = fc.constantFrom(
    PORT1,
    "boolean(//SimpleItem[@Name='state'])",
    "not(boolean(//SimpleItem[@Value='1']))",
    "boolean(//SimpleItem[@Name='port' and @Value='2']) or boolean(//SimpleItem[@Name='ready'])",
  );
  const blank = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 4 });
  type Part = Record<string, string>;
  const message: fc.Arbitrary<NotificationMessage> = fc.record({
    source: fc.constantFrom<Part>({}, { port: '1' }, { port: '2' }),
    key: fc.constant<Part>({}),
    data: fc.constantFrom<Part>({}, { state: '0' }, { state: '1' }, { ready: '1' }),
  });
  const events = fc.array(fc.tuple(fc.constantFrom(...TOPICS), message), { minLength: 1, maxLength: 8 });
  const extraKey = fc.string({ maxLength: 12 }).filter((k) => k !== 'topicFilter' && k !== 'contentFilter');
  const extras = fc.dictionary(extraKey, fc.jsonValue(), { maxKeys: 3 });

  /** Which of `events` each filter selects: the behaviour two filter lists must share to be equivalent. */
  function selection(filters: CompiledFilter[], list: [string, NotificationMessage][]): boolean[][] {
    return filters.map((f) => list.map(([topic, msg]) => filterMatches(f, topic, msg)));
  }

  it('a blank filter next to a non-empty one changes nothing', () => {
    fc.assert(
      fc.property(topicFilter, contentFilter, blank, events, (topic, content, empty, list) => {
        const withEmptyContent = compiled([{ topicFilter: topic, contentFilter: empty }]);
        const withEmptyTopic = compiled([{ topicFilter: empty, contentFilter: content }]);
        expect(selection(withEmptyContent, list)).toEqual(selection(compiled([{ topicFilter: topic }]), list));
        expect(selection(withEmptyTopic, list)).toEqual(selection(compiled([{ contentFilter: content }]), list));
        expect(effective(withEmptyContent[0])).toEqual({ topicFilter: topic });
        expect(effective(withEmptyTopic[0])).toEqual({ contentFilter: content });
      }),
      propertyRuns(300),
    );
  });

  it('an entry of blank filters only selects every event', () => {
    const entry = fc.oneof(
      fc.record({ topicFilter: blank }),
      fc.record({ contentFilter: blank }),
      fc.record({ topicFilter: blank, contentFilter: blank }),
    );
    fc.assert(
      fc.property(entry, events, (e, list) => {
        expect(selection(compiled([e]), list)).toEqual([list.map(() => true)]);
      }),
      propertyRuns(300),
    );
  });

  it('unknown keys never change the outcome, and are noted exactly when present', () => {
    const entry = fc.record(
      { topicFilter: fc.oneof(topicFilter, blank, fc.constant(5)), contentFilter: fc.oneof(contentFilter, blank) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(entry, extras, events, (e, more, list) => {
        const notes: Noted[] = [];
        const plain = configure({ eventFilterList: [e] });
        const extended = configure({ eventFilterList: [{ ...more, ...e }] }, notes);
        expect(extended.ok).toBe(plain.ok);
        if (plain.ok && extended.ok) expect(selection(extended.value, list)).toEqual(selection(plain.value, list));
        if (!plain.ok && !extended.ok) expect(extended.error).toEqual(plain.error);
        const noted = notes.find((n) => n.message === 'events:configure: unknown filter keys ignored');
        expect(noted?.fields.keys).toEqual(Object.keys(more).length > 0 ? Object.keys(more) : undefined);
      }),
      propertyRuns(300),
    );
  });

  it('any JSON as an entry gives filters or a 2103/2104, never an exception', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { minLength: 1, maxLength: 3 }), (list) => {
        const result = configure({ eventFilterList: list });
        if (!result.ok) expect([2103, 2104]).toContain(result.error.code);
        else expect(result.value).toHaveLength(list.length);
      }),
      propertyRuns(500),
    );
  });
});
