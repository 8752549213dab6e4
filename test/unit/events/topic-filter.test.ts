import fc from 'fast-check';
import {
  compileTopicFilter,
  DEFAULT_TOPIC_ALIASES,
  type TopicFilter,
  type TopicFilterOptions,
} from '../../../src/events/topic-filter';
import type { FilterSyntaxError } from '../../../src/events/filter-syntax';

const PORT = 'tns1:Device/tnsvendor:IO/Port';
const VIRTUAL_INPUT = 'tns1:Device/tnsvendor:IO/VirtualInput';
const SYSTEM_READY = 'tns1:Device/tnsvendor:Status/SystemReady';
const MOTION_ALARM = 'tns1:VideoSource/MotionAlarm';
const MOTION = 'tns1:RuleEngine/MotionRegionDetector/Motion';
const DEVICE = 'tns1:Device';
const DEVICE_X = 'tns1:DeviceX/tnsvendor:IO/Port';
const TOPICS = [PORT, VIRTUAL_INPUT, SYSTEM_READY, MOTION_ALARM, MOTION, DEVICE, DEVICE_X] as const;

function compile(expression: string, options?: TopicFilterOptions): TopicFilter {
  const result = compileTopicFilter(expression, options);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(expression)} to compile: ${result.error.message}`);
  return result.value;
}

function compileError(expression: string, options?: TopicFilterOptions): FilterSyntaxError {
  const result = compileTopicFilter(expression, options);
  if (result.ok) throw new Error(`expected ${JSON.stringify(expression)} to be rejected`);
  return result.error;
}

/** The topics of TOPICS that the filter selects, for compact table assertions. */
function selected(expression: string, options?: TopicFilterOptions): string[] {
  const filter = compile(expression, options);
  return TOPICS.filter((t) => filter.matches(t));
}

describe('compileTopicFilter: productions', () => {
  it('RootTopic as a QName matches exactly that topic', () => {
    expect(selected('tns1:Device')).toEqual([DEVICE]);
  });

  it('RootTopic as an unprefixed NCName is accepted', () => {
    const filter = compile('Device');
    expect(filter.matches('Device')).toBe(true);
    expect(filter.matches(DEVICE)).toBe(false);
  });

  it('ChildTopicName as QName and as NCName', () => {
    expect(selected('tns1:Device/tnsvendor:IO/Port')).toEqual([PORT]);
    expect(selected('tns1:VideoSource/MotionAlarm')).toEqual([MOTION_ALARM]);
  });

  it("trailing '//.' and '//' both select the node and its descendants", () => {
    const expected = [PORT, VIRTUAL_INPUT, SYSTEM_READY, DEVICE];
    expect(selected('tns1:Device//.')).toEqual(expected);
    expect(selected('tns1:Device//')).toEqual(expected);
    expect(selected('tns1:Device/tnsvendor:IO//.')).toEqual([PORT, VIRTUAL_INPUT]);
    expect(selected('tns1:Device/tnsvendor:IO//')).toEqual([PORT, VIRTUAL_INPUT]);
  });

  it("'|' joins alternatives, with or without spaces and tabs", () => {
    for (const expr of [`${PORT}|${MOTION}`, `${PORT} | ${MOTION}`, `${PORT}\t|\t${MOTION}`, `${PORT}  |${MOTION}`]) {
      expect(selected(expr)).toEqual([PORT, MOTION]);
    }
  });

  it('allows whitespace around the whole expression', () => {
    expect(selected(`  \t${PORT} \n`)).toEqual([PORT]);
  });

  it.each(['', '   ', '\t \n', '//.', '  //.  ', `${PORT} | //.`])('%j matches all events', (expr) => {
    const filter = compile(expr);
    expect(filter.matchesAll).toBe(true);
    expect(TOPICS.every((t) => filter.matches(t))).toBe(true);
    expect(filter.matches('anything/at:all')).toBe(true);
  });

  it('keeps the source exactly as written and is not matchesAll for a concrete path', () => {
    const filter = compile(` ${PORT} `);
    expect(filter.source).toBe(` ${PORT} `);
    expect(filter.matchesAll).toBe(false);
  });

  it('matches() works detached from the filter object', () => {
    const { matches } = compile('tns1:Device//.');
    expect(TOPICS.filter(matches)).toEqual([PORT, VIRTUAL_INPUT, SYSTEM_READY, DEVICE]);
  });

  it('accepts unicode letters and NCName punctuation in names', () => {
    expect(compile('tns1:Gerät/_a.b-c1/ünïcode:Ωmega').matches('tns1:Gerät/_a.b-c1/ünïcode:Ωmega')).toBe(true);
  });
});

describe('compileTopicFilter: matching table', () => {
  const table: ReadonlyArray<[filter: string, topic: string, expected: boolean]> = [
    [PORT, PORT, true],
    [PORT, VIRTUAL_INPUT, false],
    [PORT, `${PORT}/Extra`, false],
    [PORT, DEVICE, false],
    ['tns1:Device//.', PORT, true],
    ['tns1:Device//.', SYSTEM_READY, true],
    ['tns1:Device//.', DEVICE, true],
    ['tns1:Device//.', DEVICE_X, false],
    ['tns1:Device//.', 'tns1:DeviceX', false],
    ['tns1:Device//', 'tns1:Device/', true], // odd topic, but it is below tns1:Device
    ['tns1:Device//.', MOTION_ALARM, false],
    ['tns1:Device/tnsvendor:IO//.', SYSTEM_READY, false],
    ['tns1:Device/tnsvendor:IO//.', 'tns1:Device/tnsvendor:IOX/Port', false],
    ['tns1:Device/tnsvendor:IO', PORT, false],
    ['tns1:RuleEngine//', MOTION, true],
    ['tns1:RuleEngine/MotionRegionDetector/Motion', MOTION, true],
    ['tns1:VideoSource//.', MOTION_ALARM, true],
    ['tns1:VideoSource//.', MOTION, false],
    [`${MOTION_ALARM} | tns1:Device/tnsvendor:Status//.`, SYSTEM_READY, true],
    [`${MOTION_ALARM} | tns1:Device/tnsvendor:Status//.`, MOTION_ALARM, true],
    [`${MOTION_ALARM} | tns1:Device/tnsvendor:Status//.`, PORT, false],
    ['onvif:Device//.', PORT, true],
    ['onvif:VideoSource/MotionAlarm', MOTION_ALARM, true],
    ['tns1:device//.', PORT, false], // names are case-sensitive
    ['tns1:Unknown/Topic', PORT, false], // unknown topics are accepted and just never match
  ];

  it.each(table)('%j on %j -> %s', (filter, topic, expected) => {
    expect(compile(filter).matches(topic)).toBe(expected);
  });
});

describe('compileTopicFilter: prefix aliases', () => {
  it('exports the default aliases', () => {
    expect(DEFAULT_TOPIC_ALIASES).toEqual({ onvif: 'tns1' });
    expect(Object.isFrozen(DEFAULT_TOPIC_ALIASES)).toBe(true);
  });

  it('applies the default onvif alias when no options are given', () => {
    expect(selected('onvif:Device/tnsvendor:IO/Port')).toEqual([PORT]);
  });

  it('applies custom aliases to every QName prefix, root and children', () => {
    const options = { aliases: { onvif: 'tns1', axis: 'tnsvendor', tnsaxis: 'tnsvendor' } };
    expect(selected('onvif:Device/tnsaxis:IO/Port', options)).toEqual([PORT]);
    expect(selected('onvif:Device/axis:IO//.', options)).toEqual([PORT, VIRTUAL_INPUT]);
    expect(selected('tns1:Device/tnsvendor:Status/SystemReady', options)).toEqual([SYSTEM_READY]);
  });

  it('compares prefixes as written when aliases are empty', () => {
    expect(selected('onvif:Device//.', { aliases: {} })).toEqual([]);
    expect(compile('onvif:Device', { aliases: {} }).matches('onvif:Device')).toBe(true);
  });

  it('does not resolve prefixes through Object.prototype', () => {
    expect(compile('constructor:X').matches('constructor:X')).toBe(true);
    expect(compile('__proto__:X/toString:Y').matches('__proto__:X/toString:Y')).toBe(true);
  });

  it('does not alias unprefixed names', () => {
    expect(compile('onvif/Device').matches('onvif/Device')).toBe(true);
  });
});

describe('compileTopicFilter: errors', () => {
  const cases: ReadonlyArray<[input: string, message: string, column: number]> = [
    ['tns1:Device / IO', 'unexpected whitespace at column 12: whitespace is not allowed inside a topic path', 12],
    ['tns1:Device/ IO', 'unexpected whitespace at column 13: whitespace is not allowed inside a topic path', 13],
    ['/tns1:Device', "unexpected '/' at column 1: empty topic name", 1],
    ['tns1:Device/tnsvendor:IO//Port', "unexpected 'P' at column 27: '//' and '//.' may only end a topic path", 27],
    ['tns1:Device//./x', "unexpected '/' at column 15: '//' and '//.' may only end a topic path", 15],
    ['tns1:Device///', "unexpected '/' at column 14: '//' and '//.' may only end a topic path", 14],
    ['tns1:Device/', 'expected a topic name at column 13, found end of expression', 13],
    ['tns1:VideoSource | ', "'|' with nothing after it at column 18", 18],
    ['| tns1:Device', "'|' with nothing before it at column 1", 1],
    ['tns1:A | | tns1:B', "'|' with nothing before it at column 10", 10],
    ['tns1:A tns1:B', "unexpected 't' at column 8: expected '|' between topic paths", 8],
    ['tns1#', "invalid character '#' at column 5", 5],
    ['tns1:Dev#ice', "invalid character '#' at column 9", 9],
    ['tns1:Device/*', "invalid character '*' at column 13", 13],
    ['tns1:\u0001', 'invalid character U+0001 at column 6', 6],
    ['tns1:Device/1Port', "unexpected '1' at column 13: a topic name must start with a letter or '_'", 13],
    ['tns1:Device/-x', "unexpected '-' at column 13: a topic name must start with a letter or '_'", 13],
    ['tns1:', "expected a local name after 'tns1:' at column 6, found end of expression", 6],
    ['tns1:/x', "unexpected '/' at column 6: empty topic name", 6],
    [':Device', "unexpected ':' at column 1: expected a topic name", 1],
    ['a:b:c', "unexpected ':' at column 4: a topic name has at most one prefix", 4],
    ['tns1:Device/a:b:c', "unexpected ':' at column 16: a topic name has at most one prefix", 16],
    ['//', "unexpected '/' at column 1: empty topic name", 1],
    ['tns1:Device/|x', "unexpected '|' at column 13: expected a topic name", 13],
    ['tns1:Device\u00a0', 'invalid character U+00A0 at column 12', 12],
  ];

  it.each(cases)('%j -> %s', (input, message, column) => {
    expect(compileError(input)).toEqual({ code: 'FILTER_SYNTAX', message, column });
  });

  it('rejects a non-string instead of throwing', () => {
    const result = compileTopicFilter(42 as unknown as string);
    expect(result).toEqual({
      ok: false,
      error: { code: 'FILTER_SYNTAX', message: 'topic filter must be a string', column: 1 },
    });
  });

  it('keeps messages short for huge names', () => {
    const error = compileError(`${'p'.repeat(100_000)}:`);
    expect(error.column).toBe(100_002);
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('compileTopicFilter: properties', () => {
  const topicChars = fc.constantFrom(...'tns1:Device/|. \t#_-0xΩ'.split(''), '//', '//.', '\u0000', '\ud800');

  function checkResultShape(input: string): void {
    const result = compileTopicFilter(input);
    if (result.ok) {
      expect(result.value.source).toBe(input);
      expect(typeof result.value.matches('tns1:Device')).toBe('boolean');
    } else {
      expect(result.error.column).toBeGreaterThanOrEqual(1);
      expect(result.error.column).toBeLessThanOrEqual(input.length + 1);
      expect(result.error.message).toContain(`column ${result.error.column}`);
    }
  }

  it('any string yields a result with a column inside the input, never an exception', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), checkResultShape), { numRuns: 2000 });
    fc.assert(fc.property(fc.string({ unit: topicChars, maxLength: 60 }), checkResultShape), { numRuns: 3000 });
  });

  it('handles huge inputs without throwing', () => {
    checkResultShape('tns1:A|'.repeat(50_000));
    checkResultShape(`${'x/'.repeat(100_000)}y//.`);
    checkResultShape('/'.repeat(100_000));
    checkResultShape('|'.repeat(100_000));
    expect(compile(`${'x/'.repeat(100_000)}y`).matches(`${'x/'.repeat(100_000)}y`)).toBe(true);
  });

  // Slow but obviously right: split both sides into segments and compare them.
  const ALIASES: Readonly<Record<string, string>> = { onvif: 'tns1', axis: 'tnsvendor' };
  const FILTER_SEGMENTS = [
    'tns1:Device',
    'onvif:Device',
    'tns1:DeviceX',
    'tnsvendor:IO',
    'axis:IO',
    'Port',
    'P',
    'tns1:VideoSource',
  ];
  const TOPIC_SEGMENTS = ['tns1:Device', 'tns1:DeviceX', 'tnsvendor:IO', 'Port', 'P', 'tns1:VideoSource'];

  interface Alternative {
    segments: string[];
    tail: '' | '//' | '//.';
  }

  function canonical(segment: string): string {
    const colon = segment.indexOf(':');
    if (colon < 0) return segment;
    const prefix = segment.slice(0, colon);
    return `${ALIASES[prefix] ?? prefix}${segment.slice(colon)}`;
  }

  function referenceMatches(alternatives: Alternative[], topic: string): boolean {
    const topicSegments = topic.split('/');
    return alternatives.some(({ segments, tail }) => {
      if (segments.length === 0) return true; // the bare '//.'
      const path = segments.map(canonical);
      if (tail === '' && topicSegments.length !== path.length) return false;
      if (topicSegments.length < path.length) return false;
      return path.every((s, i) => s === topicSegments[i]);
    });
  }

  const alternative: fc.Arbitrary<Alternative> = fc.oneof(
    {
      weight: 30,
      arbitrary: fc.record({
        segments: fc.array(fc.constantFrom(...FILTER_SEGMENTS), { minLength: 1, maxLength: 4 }),
        tail: fc.constantFrom<Alternative['tail']>('', '//', '//.'),
      }),
    },
    { weight: 1, arbitrary: fc.constant<Alternative>({ segments: [], tail: '//.' }) },
  );
  const separator = fc.constantFrom('|', ' | ', '\t|', '|  ', ' \t| \t');
  const padding = fc.constantFrom('', ' ', '\t', '  \n');
  const expression = fc
    .tuple(
      fc.array(alternative, { minLength: 1, maxLength: 4 }),
      fc.array(separator, { minLength: 3, maxLength: 3 }),
      padding,
      padding,
    )
    .map(([alternatives, separators, before, after]) => {
      const text = alternatives
        .map((a) => (a.segments.length === 0 ? '//.' : a.segments.join('/') + a.tail))
        .reduce((acc, part, i) => `${acc}${separators[(i - 1) % separators.length]}${part}`);
      return { alternatives, text: `${before}${text}${after}` };
    });
  const topic = fc.array(fc.constantFrom(...TOPIC_SEGMENTS), { minLength: 1, maxLength: 5 }).map((s) => s.join('/'));

  it('agrees with a segment-by-segment reference matcher', () => {
    let matched = 0;
    fc.assert(
      fc.property(expression, fc.array(topic, { minLength: 1, maxLength: 10 }), ({ alternatives, text }, topics) => {
        const result = compileTopicFilter(text, { aliases: ALIASES });
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        for (const t of topics) {
          const expected = referenceMatches(alternatives, t);
          if (expected) matched++;
          expect(result.value.matches(t)).toBe(expected);
        }
      }),
      { numRuns: 3000 },
    );
    // Guards the generator: with too few matches the comparison would prove little.
    expect(matched).toBeGreaterThan(1000);
  });
});
