/** Personas and the namespace word: what resolveDeviceOptions makes of them, and what it refuses. */
import fc from 'fast-check';
import { EmulatorError } from '../../../src/base/errors';
import { type DeviceOptions, resolveDeviceOptions } from '../../../src/device/device-options';
import { DEFAULT_INITIAL_STATES } from '../../../src/device/initial-states';
import { PERSONA_NAMES, PERSONAS } from '../../../src/device/persona';
import { compileTopicFilter } from '../../../src/events/topic-filter';
import { propertyRuns } from '../../helpers/fast-check-config';

/** The BAD_OPTION message `options` are refused with. */
function refusal(options: DeviceOptions): string {
  try {
    resolveDeviceOptions(options);
  } catch (err) {
    expect(err).toBeInstanceOf(EmulatorError);
    expect((err as EmulatorError).code).toBe('BAD_OPTION');
    return (err as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(options)} to be refused`);
}

/** Whether a filter, compiled with the device's aliases, selects `topic`. */
function selects(options: ReturnType<typeof resolveDeviceOptions>, filter: string, topic: string): boolean {
  const compiled = compileTopicFilter(filter, { aliases: options.topicAliases });
  if (!compiled.ok) throw new Error(compiled.error.message);
  return compiled.value.matches(topic);
}

describe('personas', () => {
  it('svc and axis are the presets', () => {
    expect(PERSONA_NAMES).toEqual(['svc', 'axis']);
    expect(PERSONAS.axis).toMatchObject({
      cgiPrefix: '/axis-cgi',
      wsPrefix: '/vapix',
      realmWord: 'AXIS',
      namespace: 'tnsaxis',
    });
  });

  it('without one: the spec words, as before personas existed', () => {
    const o = resolveDeviceOptions({});
    expect(o).toMatchObject({
      persona: undefined,
      cgiPrefix: '/svc-cgi',
      wsPrefix: '/svc',
      realm: 'SVC_ACCC8E000001',
      namespace: 'tnsvendor',
      topicAliases: { onvif: 'tns1' },
    });
    expect(o.initialStates).toEqual(DEFAULT_INITIAL_STATES);
  });

  it('svc names the same words', () => {
    expect(resolveDeviceOptions({ persona: 'svc' })).toMatchObject({
      persona: 'svc',
      cgiPrefix: '/svc-cgi',
      wsPrefix: '/svc',
      realm: 'SVC_ACCC8E000001',
      namespace: 'tnsvendor',
      topicAliases: { onvif: 'tns1' },
    });
  });

  it('axis sets the prefixes, the realm form and the namespace together', () => {
    const o = resolveDeviceOptions({ persona: 'axis', serial: 'B8A44F000042' });
    expect(o).toMatchObject({
      persona: 'axis',
      cgiPrefix: '/axis-cgi',
      wsPrefix: '/vapix',
      realm: 'AXIS_B8A44F000042',
      namespace: 'tnsaxis',
      topicAliases: { onvif: 'tns1', tnsvendor: 'tnsaxis' },
    });
    expect(o.initialStates.map((s) => s.topic)).toEqual([
      'tns1:Device/tnsaxis:Status/SystemReady',
      'tns1:Device/tnsaxis:IO/Port',
      'tns1:Device/tnsaxis:IO/Port',
    ]);
    expect(o.initialStates[1].message).toEqual(DEFAULT_INITIAL_STATES[1].message);
  });

  it('explicit options win over the persona, each on its own', () => {
    const o = resolveDeviceOptions({
      persona: 'axis',
      cgiPrefix: '/cam-cgi',
      wsPrefix: '/ws',
      realm: 'Camera',
      namespace: 'tnsacme',
    });
    expect(o).toMatchObject({ cgiPrefix: '/cam-cgi', wsPrefix: '/ws', realm: 'Camera', namespace: 'tnsacme' });
    expect(resolveDeviceOptions({ persona: 'axis', cgiPrefix: '/svc-cgi' })).toMatchObject({
      cgiPrefix: '/svc-cgi',
      wsPrefix: '/vapix',
      realm: 'AXIS_ACCC8E000001',
      namespace: 'tnsaxis',
    });
  });

  it('the realm follows the persona when one is named, else the CGI prefix', () => {
    expect(resolveDeviceOptions({ persona: 'svc', cgiPrefix: '/axis-cgi' }).realm).toBe('SVC_ACCC8E000001');
    expect(resolveDeviceOptions({ cgiPrefix: '/axis-cgi' }).realm).toBe('AXIS_ACCC8E000001');
  });

  it.each([['bogus'], ['AXIS'], ['constructor'], [''], [5]])('refuses the persona %p', (persona) => {
    expect(refusal({ persona: persona as DeviceOptions['persona'] })).toMatch(
      /^persona ".*" must be one of svc, axis$/,
    );
  });
});

describe('namespace', () => {
  it('alone renames the published namespace and keeps tnsvendor usable in filters', () => {
    const o = resolveDeviceOptions({ namespace: 'tnsaxis' });
    expect(o).toMatchObject({ cgiPrefix: '/svc-cgi', realm: 'SVC_ACCC8E000001', namespace: 'tnsaxis' });
    const port = 'tns1:Device/tnsaxis:IO/Port';
    expect(o.initialStates.map((s) => s.topic)).toContain(port);
    for (const filter of [port, 'tns1:Device/tnsvendor:IO/Port', 'onvif:Device/tnsvendor:IO//.', 'tns1:Device//.'])
      expect(selects(o, filter, port)).toBe(true);
  });

  it('renames the tnsvendor topics of given initial states, and only those', () => {
    const o = resolveDeviceOptions({
      namespace: 'tnsaxis',
      initialStates: [
        { topic: 'tns1:Device/tnsvendor:IO/VirtualInput', message: { data: { active: '0' } } },
        { topic: 'tns1:VideoSource/MotionAlarm', message: { data: { State: '0' } } },
      ],
    });
    expect(o.initialStates.map((s) => s.topic)).toEqual([
      'tns1:Device/tnsaxis:IO/VirtualInput',
      'tns1:VideoSource/MotionAlarm',
    ]);
  });

  it('retargets aliases that name tnsvendor, and keeps an explicit tnsvendor alias', () => {
    expect(resolveDeviceOptions({ namespace: 'tnsaxis', topicAliases: { tnsaxis: 'tnsvendor' } }).topicAliases).toEqual(
      { tnsaxis: 'tnsaxis', tnsvendor: 'tnsaxis' },
    );
    expect(resolveDeviceOptions({ persona: 'axis', topicAliases: { acme: 'tnsvendor' } }).topicAliases).toEqual({
      acme: 'tnsaxis',
      tnsvendor: 'tnsaxis',
    });
    expect(resolveDeviceOptions({ persona: 'axis', topicAliases: { tnsvendor: 'other' } }).topicAliases).toEqual({
      tnsvendor: 'other',
    });
    // With the neutral namespace nothing changes, as before.
    expect(resolveDeviceOptions({ topicAliases: { tnsaxis: 'tnsvendor' } }).topicAliases).toEqual({
      tnsaxis: 'tnsvendor',
    });
  });

  it.each([
    ['', /namespace "" must be a topic prefix like tnsaxis/],
    ['1abc', /namespace "1abc" must be a topic prefix/],
    ['tns:axis', /must be a topic prefix/],
    ['tns axis', /must be a topic prefix/],
    ['tnsäxis', /must be a topic prefix/],
    ['x'.repeat(65), /must be a topic prefix/],
    ['tns1', /namespace "tns1" is the ONVIF topic namespace/],
    ['onvif', /namespace "onvif" is also a topic alias for "tns1"/],
  ])('refuses the namespace %p', (namespace, message) => {
    expect(refusal({ namespace })).toMatch(message);
  });

  it('refuses a namespace that is not a string', () => {
    expect(refusal({ namespace: 7 as unknown as string })).toMatch(/namespace "7" must be a topic prefix/);
  });

  it('any string is a namespace or a BAD_OPTION, never another exception', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 70 }), (namespace) => {
        let resolved: ReturnType<typeof resolveDeviceOptions> | undefined;
        try {
          resolved = resolveDeviceOptions({ namespace });
        } catch (err) {
          expect((err as EmulatorError).code).toBe('BAD_OPTION');
          expect((err as Error).message).toContain('namespace');
          return;
        }
        expect(resolved.namespace).toBe(namespace);
      }),
      propertyRuns(500),
    );
  });

  it('with any valid word, filters in either word select what the device publishes', () => {
    const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,20}$/).filter((w) => w !== 'tns1' && w !== 'onvif');
    fc.assert(
      fc.property(word, (namespace) => {
        const o = resolveDeviceOptions({ namespace });
        const published = o.initialStates.map((s) => s.topic);
        expect(published).toContain(`tns1:Device/${namespace}:IO/Port`);
        for (const topic of published) {
          expect(selects(o, topic, topic)).toBe(true);
          expect(selects(o, topic.replace(`/${namespace}:`, '/tnsvendor:'), topic)).toBe(true);
        }
      }),
      propertyRuns(200),
    );
  });
});

describe('realm', () => {
  it.each([[''], ['a\r\nb'], ['tab\there'], ['x'.repeat(129)]])('refuses %p', (realm) => {
    expect(refusal({ realm })).toMatch(/^realm ".*" must be 1-128 characters on one line/s);
  });

  it('accepts quotes and spaces (they are escaped in the challenge)', () => {
    expect(resolveDeviceOptions({ realm: 'My "Camera"' }).realm).toBe('My "Camera"');
  });
});
