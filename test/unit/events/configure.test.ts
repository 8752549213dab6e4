import {
  compileConfigure,
  type CompiledFilter,
  type ConfigureResult,
  type ConfigureRules,
  filterTerms,
  listTerms,
  DEFAULT_MAX_FILTERS,
  EVENT_STREAM_API,
  filterMatches,
} from '../../../src/events/configure';
import type { NotificationMessage } from '../../../src/events/notification-message';
import { DEFAULT_TOPIC_ALIASES } from '../../../src/events/topic-filter';
import { RpcErrorCode, type RpcRequest } from '../../../src/protocol/rpc';

const RULES: ConfigureRules = { topicAliases: DEFAULT_TOPIC_ALIASES, maxFilters: DEFAULT_MAX_FILTERS };
const PORT = 'tns1:Device/tnsvendor:IO/Port';
const VIRTUAL_INPUT = 'tns1:Device/tnsvendor:IO/VirtualInput';
const MOTION = 'tns1:RuleEngine/MotionRegionDetector/Motion';
const PORT1_ACTIVE = "boolean(//SimpleItem[@Name='port' and @Value='1'])";

function request(params: Record<string, unknown>): RpcRequest {
  return { apiVersion: '1.0', method: 'events:configure', params };
}

function configure(eventFilterList: unknown, rules: ConfigureRules = RULES): ConfigureResult {
  return compileConfigure(request({ eventFilterList }), rules);
}

function filters(eventFilterList: unknown, rules: ConfigureRules = RULES): CompiledFilter[] {
  const result = configure(eventFilterList, rules);
  if (!result.ok) throw new Error(`expected the filters to compile: ${result.error.code} ${result.error.message}`);
  return result.value;
}

function error(eventFilterList: unknown, rules: ConfigureRules = RULES): { code: number; message: string } {
  const result = configure(eventFilterList, rules);
  if (result.ok) throw new Error(`expected ${JSON.stringify(eventFilterList)} to be refused`);
  return result.error;
}

describe('EVENT_STREAM_API', () => {
  it('serves events:configure at version 1.0', () => {
    expect(EVENT_STREAM_API.versions).toEqual(['1.0']);
    expect(EVENT_STREAM_API.methods).toEqual(['events:configure']);
  });
});

describe('compileConfigure: eventFilterList itself', () => {
  it('2103 when params has no eventFilterList', () => {
    const result = compileConfigure(request({}), RULES);
    expect(result).toEqual({
      ok: false,
      error: { code: RpcErrorCode.PARAMETER_MISSING, message: expect.stringContaining('eventFilterList') as string },
    });
    expect(RpcErrorCode.PARAMETER_MISSING).toBe(2103);
  });

  it.each([
    ['an object', {}],
    ['a string', 'tns1:Device'],
    ['a number', 5],
    ['null', null],
    ['true', true],
  ])('2104 when eventFilterList is %s', (_name, value) => {
    const e = error(value);
    expect(e.code).toBe(2104);
    expect(e.message).toMatch(/eventFilterList must be a list/);
  });

  it('2104 "eventFilterList is empty" for []', () => {
    expect(error([])).toEqual({ code: 2104, message: expect.stringContaining('eventFilterList is empty') as string });
  });

  it('2104 when there are more filters than maxFilters; exactly maxFilters is fine', () => {
    const rules = { ...RULES, maxFilters: 3 };
    const entry = { topicFilter: PORT };
    expect(filters([entry, entry, entry], rules)).toHaveLength(3);
    const e = error([entry, entry, entry, entry], rules);
    expect(e.code).toBe(2104);
    expect(e.message).toContain('4 filters');
    expect(e.message).toContain('at most 3');
  });

  it('accepts the default limit of 256 filters', () => {
    expect(filters(Array.from({ length: DEFAULT_MAX_FILTERS }, () => ({ topicFilter: PORT })))).toHaveLength(
      DEFAULT_MAX_FILTERS,
    );
    expect(error(Array.from({ length: DEFAULT_MAX_FILTERS + 1 }, () => ({ topicFilter: PORT }))).code).toBe(2104);
  });
});

describe('compileConfigure: entries', () => {
  it.each([
    ['a number', 1],
    ['null', null],
    ['a list', [{ topicFilter: PORT }]],
    ['a string', PORT],
    ['a boolean', false],
  ])('2104 when an entry is %s, naming the entry', (_name, entry) => {
    const e = error([{ topicFilter: PORT }, entry]);
    expect(e.code).toBe(2104);
    expect(e.message).toContain('eventFilterList[1]');
    expect(e.message).toContain('must be an object');
  });

  it('2103 for an entry with neither topicFilter nor contentFilter, naming the entry', () => {
    for (const entry of [{}, { other: PORT }, { TopicFilter: PORT }]) {
      const e = error([{ topicFilter: PORT }, { topicFilter: MOTION }, entry]);
      expect(e.code).toBe(2103);
      expect(e.message).toContain('eventFilterList[2]');
      expect(e.message).toMatch(/topicFilter or contentFilter/);
    }
  });

  it.each([
    ['topicFilter', 5],
    ['topicFilter', null],
    ['topicFilter', ['tns1:Device']],
    ['topicFilter', { path: PORT }],
    ['contentFilter', true],
    ['contentFilter', null],
    ['contentFilter', 0],
  ])('2104 when %s is %p (not a string)', (field, value) => {
    const e = error([{ [field]: value }]);
    expect(e.code).toBe(2104);
    expect(e.message).toContain(`eventFilterList[0].${field} must be a string`);
  });

  it('2104 for a wrongly typed contentFilter even next to a valid topicFilter', () => {
    const e = error([{ topicFilter: PORT, contentFilter: 1 }]);
    expect(e.code).toBe(2104);
    expect(e.message).toContain('eventFilterList[0].contentFilter');
  });

  it.each([
    ['tns1:Device/|', 13],
    ['tns1:Device//x', 14],
    ['1abc', 1],
    ['tns1::x', 6],
    [`${PORT} |`, PORT.length + 2],
  ])('2104 for the topic filter %p, with the entry index and column %i in the message', (topicFilter, column) => {
    const e = error([{ topicFilter: PORT }, { topicFilter }]);
    expect(e.code).toBe(2104);
    expect(e.message).toMatch(/^Invalid parameter: eventFilterList\[1\]\.topicFilter: /);
    expect(e.message).toContain(`column ${column}`);
  });

  it.each([
    ["boolean(//SimpleItem[@Name='a'])x", 33],
    ['boolean(', 9],
    ['foo', 1],
    ['boolean(//SimpleItem[@Name=a])', 28],
  ])('2104 for the content filter %p, with the entry index and column %i in the message', (contentFilter, column) => {
    const e = error([{ contentFilter: PORT1_ACTIVE }, { topicFilter: PORT }, { contentFilter }]);
    expect(e.code).toBe(2104);
    expect(e.message).toMatch(/^Invalid parameter: eventFilterList\[2\]\.contentFilter: /);
    expect(e.message).toContain(`column ${column}`);
  });

  it('reports the first bad entry', () => {
    const e = error([{ topicFilter: PORT }, { topicFilter: '1bad' }, { contentFilter: 'bad' }]);
    expect(e.message).toContain('eventFilterList[1]');
  });

  it('ignores unknown members of an entry', () => {
    expect(filters([{ topicFilter: PORT, comment: 'x' }])).toHaveLength(1);
  });

  it('compiles every entry, in order, keeping the source text', () => {
    const compiled = filters([
      { topicFilter: PORT },
      { contentFilter: PORT1_ACTIVE },
      { topicFilter: MOTION, contentFilter: PORT1_ACTIVE },
    ]);
    expect(compiled.map((f) => [f.topic?.source, f.content?.source])).toEqual([
      [PORT, undefined],
      [undefined, PORT1_ACTIVE],
      [MOTION, PORT1_ACTIVE],
    ]);
  });

  it('applies the topic aliases of the rules', () => {
    const [withAlias] = filters([{ topicFilter: 'onvif:Device/tnsvendor:IO/Port' }]);
    expect(withAlias.topic?.matches(PORT)).toBe(true);
    const [noAlias] = filters([{ topicFilter: 'onvif:Device/tnsvendor:IO/Port' }], { ...RULES, topicAliases: {} });
    expect(noAlias.topic?.matches(PORT)).toBe(false);
    const [vendor] = filters([{ topicFilter: 'tns1:Device/tnsaxis:IO/Port' }], {
      ...RULES,
      topicAliases: { tnsaxis: 'tnsvendor' },
    });
    expect(vendor.topic?.matches(PORT)).toBe(true);
  });

  it('accepts "" and "//." as match-all topic filters', () => {
    for (const topicFilter of ['', '//.']) {
      const [f] = filters([{ topicFilter }]);
      expect(filterMatches(f, MOTION, {})).toBe(true);
      expect(filterMatches(f, PORT, { data: { state: '1' } })).toBe(true);
    }
  });
});

describe('filterMatches', () => {
  const port1: NotificationMessage = { source: { port: '1' }, data: { state: '1' } };
  const port2: NotificationMessage = { source: { port: '2' }, data: { state: '1' } };

  it('a topic filter alone looks only at the topic', () => {
    const [f] = filters([{ topicFilter: PORT }]);
    expect(filterMatches(f, PORT, port1)).toBe(true);
    expect(filterMatches(f, PORT, {})).toBe(true);
    expect(filterMatches(f, VIRTUAL_INPUT, port1)).toBe(false);
  });

  it('a content filter alone looks only at the message', () => {
    const [f] = filters([{ contentFilter: PORT1_ACTIVE }]);
    expect(filterMatches(f, PORT, port1)).toBe(true);
    expect(filterMatches(f, VIRTUAL_INPUT, port1)).toBe(true);
    expect(filterMatches(f, PORT, port2)).toBe(false);
  });

  it('topic and content in one entry must both match (AND)', () => {
    const [f] = filters([{ topicFilter: PORT, contentFilter: PORT1_ACTIVE }]);
    expect(filterMatches(f, PORT, port1)).toBe(true);
    expect(filterMatches(f, PORT, port2)).toBe(false);
    expect(filterMatches(f, VIRTUAL_INPUT, port1)).toBe(false);
    expect(filterMatches(f, VIRTUAL_INPUT, port2)).toBe(false);
  });

  it('a content filter sees source, key and data', () => {
    const [onKey] = filters([{ contentFilter: "boolean(//SimpleItem[@Name='id' and @Value='7'])" }]);
    expect(filterMatches(onKey, MOTION, { key: { id: '7' } })).toBe(true);
    expect(filterMatches(onKey, MOTION, { source: { id: '7' } })).toBe(true);
    expect(filterMatches(onKey, MOTION, { data: { id: '7' } })).toBe(true);
    expect(filterMatches(onKey, MOTION, { data: { id: '8' } })).toBe(false);
  });
});

describe('filter terms and their limit', () => {
  it('counts topic alternatives plus content comparisons, at least 1 per filter', () => {
    const [topic, content, both, all] = filters([
      { topicFilter: `${PORT}|${MOTION}|tns1:Device//.` },
      { contentFilter: PORT1_ACTIVE },
      { topicFilter: PORT, contentFilter: `${PORT1_ACTIVE} or boolean(//SimpleItem[@Value='0'])` },
      { topicFilter: '' },
    ]);
    expect([topic, content, both, all].map(filterTerms)).toEqual([3, 2, 4, 1]);
    expect(listTerms([topic, content, both, all])).toBe(10);
  });

  it('refuses a filter over maxFilterTerms with 2104 naming the entry and the limit', () => {
    const rules = { ...RULES, maxFilterTerms: 2 };
    expect(filters([{ topicFilter: `${PORT}|${MOTION}` }], rules)).toHaveLength(1);
    expect(error([{ topicFilter: PORT }, { topicFilter: PORT, contentFilter: PORT1_ACTIVE }], rules)).toEqual({
      code: 2104,
      message:
        'Invalid parameter: eventFilterList[1] has 3 terms (topic alternatives and content comparisons); at most 2 per filter are accepted',
    });
  });

  it('applies maxFilterNesting to content filters', () => {
    const nested = `((${PORT1_ACTIVE}))`;
    expect(filters([{ contentFilter: nested }], { ...RULES, maxFilterNesting: 4 })).toHaveLength(1);
    expect(error([{ contentFilter: nested }], { ...RULES, maxFilterNesting: 3 }).message).toMatch(
      /nested too deeply at column 23 \(more than 3 levels\)/,
    );
  });
});
