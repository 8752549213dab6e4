/**
 * `GET /_emu/report` on a device's port: the same report as `emulator.report()` (this
 * device's findings; every device's with `?all=true`), a 400 for a bad query, and the
 * route in `/_emu/openapi.json`.
 */
import { type EmulatorHandle, loadScenario, startEmulator } from '../../../src';
import { ManualClock } from '../../../src/base/clock';
import { ReportSchema } from '../../../src/control/report-schemas';
import { DEFAULT_THRESHOLDS, type GradingReport } from '../../../src/grading/report';
import { RULE_IDS } from '../../../src/grading/rule-catalogue';
import { openWithToken, type StreamClient } from '../../helpers/event-stream-client';
import { sendRequest } from '../../helpers/http';
import { MOTION, gradingRig } from './grading-rig';

const start = gradingRig();

/** GET `path` on `baseUrl`: the status and the JSON body. */
async function getJson(baseUrl: string, path: string): Promise<{ status: number; type: string; body: unknown }> {
  const answer = await sendRequest(baseUrl, { path });
  return { status: answer.status, type: String(answer.headers['content-type']), body: JSON.parse(answer.body) };
}

/** The code and message of a control API refusal; throws unless `body` is exactly `{ error: { code, message } }`. */
function refusalOf(body: unknown): [string, string] {
  const { error, ...rest } = body as { error: { code: unknown; message: unknown } };
  const { code, message, ...more } = error;
  expect({ rest, more }).toEqual({ rest: {}, more: {} });
  if (typeof code !== 'string' || typeof message !== 'string')
    throw new Error(`not a refusal: ${JSON.stringify(body)}`);
  return [code, message];
}

/** A report as it crosses the wire (undefined fields dropped). */
function asJson(report: GradingReport): unknown {
  return JSON.parse(JSON.stringify(report));
}

describe('GET /_emu/report', () => {
  it('answers 200 JSON with the same findings as emulator.report()', async () => {
    const run = await start();
    // A client that leaks sessions (3 at once) and subscribes to a typo.
    for (let i = 0; i < 3; i++) {
      const client = await run.open();
      expect((await client.configure([{ topicFilter: `tns1:VideoSource/MotionAlrm${i}` }])).error).toBeUndefined();
    }
    const report = run.emulator.report();
    expect(report.findings.map((f) => f.rule)).toEqual([
      'concurrent-sessions',
      'filter-matches-nothing',
      'filter-matches-nothing',
      'filter-matches-nothing',
    ]);
    const answer = await getJson(run.device.url, '/_emu/report');
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.body).toEqual(asJson(report));
    // The control API's own request is not graded, nor journalled as the client's.
    expect(run.emulator.report()).toEqual(report);
  });

  it('answers the same with ?all=true and ?all=false on a single device', async () => {
    const run = await start();
    const client = await run.open();
    expect((await client.configure([{ topicFilter: MOTION }])).error).toBeUndefined();
    run.advance(1000);
    const report = asJson(run.emulator.report());
    expect((await getJson(run.device.url, '/_emu/report?all=true')).body).toEqual(report);
    expect((await getJson(run.device.url, '/_emu/report?all=false')).body).toEqual(report);
  });

  it('answers 400 { error: { code, message } } for ?all=maybe and for an unknown parameter', async () => {
    const run = await start();
    const bad = await getJson(run.device.url, '/_emu/report?all=maybe');
    expect(bad.status).toBe(400);
    expect(refusalOf(bad.body)).toEqual(['BAD_REQUEST', 'query.all: Invalid option: expected one of "true"|"false"']);
    // Any other name is a threshold's: the grader names the ones it knows.
    const unknown = await getJson(run.device.url, '/_emu/report?everything=true');
    expect(unknown.status).toBe(400);
    expect(refusalOf(unknown.body)).toEqual([
      'BAD_OPTION',
      `no grading threshold "everything"; thresholds: ${Object.keys(DEFAULT_THRESHOLDS).join(', ')}`,
    ]);
  });

  it('applies thresholds and rules from the query, says so, and fits the report schema', async () => {
    const run = await start();
    // A session never configured: configure-missing after 10 s; and a typo: filter-matches-nothing.
    await run.open();
    const typo = await run.open();
    expect((await typo.configure([{ topicFilter: 'tns1:VideoSource/MotionAlrm' }])).error).toBeUndefined();
    run.advance(11_000);
    const path = '/_emu/report?configureWithinMs=20000&minRetryRun=3&skipRules=concurrent-sessions';
    const answer = await getJson(run.device.url, path);
    expect(answer.status).toBe(200);
    const report = ReportSchema.parse(answer.body) as unknown as GradingReport;
    expect(report.findings.map((f) => f.rule)).toEqual(['filter-matches-nothing']);
    expect(report.thresholds).toEqual({ ...DEFAULT_THRESHOLDS, configureWithinMs: 20_000, minRetryRun: 3 });
    expect(report.skippedRules).toEqual(['concurrent-sessions']);
    expect(report.rules.map((r) => r.id)).not.toContain('concurrent-sessions');
    const same = run.emulator.report({
      thresholds: { configureWithinMs: 20_000, minRetryRun: 3 },
      skipRules: ['concurrent-sessions'],
    });
    expect(answer.body).toEqual(asJson(same));
    const only = await getJson(run.device.url, '/_emu/report?rules=configure-missing,token-reused');
    expect(only.status).toBe(200);
    const onlyReport = ReportSchema.parse(only.body);
    expect(onlyReport.findings.map((f) => f.rule)).toEqual(['configure-missing']);
    expect(onlyReport.rules.map((r) => r.id)).toEqual(['token-reused', 'configure-missing']);
  });

  it.each([
    [
      'configureWithinMs=soon',
      'BAD_OPTION',
      'grading threshold configureWithinMs must be a number of milliseconds, 0 or more, not "soon"',
    ],
    ['minRetryRun=0', 'BAD_OPTION', 'grading threshold minRetryRun must be a whole number of 1 or more, not 0'],
    [
      'rules=token-reused,no-such-rule',
      'BAD_OPTION',
      `rules: no rule "no-such-rule"; the rules: ${RULE_IDS.join(', ')}`,
    ],
    [
      'rules=auth-failed&skipRules=polling',
      'BAD_OPTION',
      'give rules (only these) or skipRules (all but these), not both',
    ],
    ['segments=some', 'BAD_REQUEST', 'query.segments: Invalid option: expected one of "all"|"current"'],
    [
      'configureWithinMs=1&configureWithinMs=2',
      'BAD_REQUEST',
      'query.configureWithinMs: Invalid input: expected string, received array',
    ],
  ])('answers 400 to ?%s, naming the value and the valid ones', async (query, code, message) => {
    const run = await start();
    const answer = await getJson(run.device.url, `/_emu/report?${query}`);
    expect(answer.status).toBe(400);
    expect(refusalOf(answer.body)).toEqual([code, message]);
  });

  it('is in /_emu/openapi.json with its query parameters, every threshold among them', async () => {
    const run = await start();
    const answer = await getJson(run.device.url, '/_emu/openapi.json');
    expect(answer.status).toBe(200);
    const paths = (answer.body as { paths: Record<string, Record<string, unknown>> }).paths;
    const operation = paths['/_emu/report']?.get as
      { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> } | undefined;
    expect(operation).toBeDefined();
    expect(operation?.parameters?.map((p) => [p.in, p.name])).toEqual(
      ['all', 'segments', 'rules', 'skipRules', ...Object.keys(DEFAULT_THRESHOLDS)].map((name) => ['query', name]),
    );
    expect(Object.keys(operation?.responses ?? {})).toContain('200');
  });
});

describe('GET /_emu/report on a fleet', () => {
  const running: EmulatorHandle[] = [];
  const clients: StreamClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(running.splice(0).map((e) => e.close()));
  });

  it("grades only the port's device, and every device with ?all=true", async () => {
    const clock = new ManualClock(Date.parse('2026-06-01T10:00:00.000Z'));
    const loaded = loadScenario(`name: fleet\ntimeline:\n  - { at: 1h, emit: { topic: "${MOTION}" } }\n`, 'f.yaml');
    if (!loaded.ok) throw new Error(loaded.error.errors.map((e) => e.text).join('\n'));
    const emulator = await startEmulator({
      scenarios: [{ scenario: loaded.value }],
      devices: 2,
      device: { port: 0, clock },
    });
    running.push(emulator);
    const [first, second] = emulator.devices.map((d) => d.device);
    // On the second device only: a session never configured.
    clients.push(await openWithToken(second));
    clock.advance(11_000);
    const all = emulator.report();
    expect(all.findings.map((f) => [f.rule, f.device])).toEqual([['configure-missing', second.serial]]);
    const onFirst = await getJson(first.url, '/_emu/report');
    expect(onFirst.body).toEqual(asJson(emulator.report({ device: first.serial })));
    expect((onFirst.body as GradingReport).findings).toEqual([]);
    const onSecond = await getJson(second.url, '/_emu/report');
    expect(onSecond.body).toEqual(asJson(emulator.report({ device: second.serial })));
    expect((onSecond.body as GradingReport).findings.map((f) => f.rule)).toEqual(['configure-missing']);
    expect((await getJson(first.url, '/_emu/report?all=true')).body).toEqual(asJson(all));
  });
});

describe('segments through the control API: a reset ends one, and the report keeps every one', () => {
  /** Sends `method path` with a JSON `body` (none when undefined): the status and the JSON answer, if any. */
  async function send(
    baseUrl: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const answer = await sendRequest(baseUrl, {
      method,
      path,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
    return { status: answer.status, body: answer.body === '' ? undefined : JSON.parse(answer.body) };
  }

  it('keeps the findings of the test before a reset, named as the tests named their segments', async () => {
    const run = await start();
    // The first test's client opens a session and never configures it.
    await run.open();
    run.advance(11_000);
    expect(
      (await send(run.device.url, 'POST', `/_emu/reset?segment=${encodeURIComponent('test_typo[1]')}`)).status,
    ).toBe(204);
    // The second test's client subscribes to a typo.
    const client = await run.open();
    expect((await client.configure([{ topicFilter: 'tns1:VideoSource/MotionAlrm' }])).error).toBeUndefined();
    run.advance(1000);
    expect((await send(run.device.url, 'POST', '/_emu/reset', { segment: 'test_quiet' })).status).toBe(204);
    const answer = await getJson(run.device.url, '/_emu/report');
    const report = ReportSchema.parse(answer.body);
    expect(report.findings.map((f) => [f.rule, f.segment])).toEqual([
      ['configure-missing', { index: 1, name: 'segment 1' }],
      ['filter-matches-nothing', { index: 2, name: 'test_typo[1]' }],
    ]);
    expect(report.summary).toEqual({ errors: 1, warnings: 1, infos: 0, expectationsBroken: 0 });
    expect(report.segments.map((s) => [s.index, s.name, s.named, s.ended])).toEqual([
      [1, 'segment 1', false, true],
      [2, 'test_typo[1]', true, true],
      [3, 'test_quiet', true, false],
    ]);
    expect(answer.body).toEqual(asJson(run.emulator.report()));
    // The running segment only: what a test reads to check its own client.
    const current = ReportSchema.parse((await getJson(run.device.url, '/_emu/report?segments=current')).body);
    expect(current.findings).toEqual([]);
    expect(current.segments.map((s) => s.name)).toEqual(['test_quiet']);
  });

  it('names the running segment with PUT /_emu/segment', async () => {
    const run = await start();
    const named = await send(run.device.url, 'PUT', '/_emu/segment', { name: 'test_after_itself' });
    expect(named).toEqual({
      status: 200,
      body: { index: 1, name: 'test_after_itself', named: true, from: '2026-06-01T10:00:00.000Z' },
    });
    await run.open();
    run.advance(11_000);
    await run.emulator.reset();
    expect(run.emulator.report().findings.map((f) => f.segment)).toEqual([{ index: 1, name: 'test_after_itself' }]);
  });

  it.each([
    ['an empty ?segment=', '?segment=', undefined, 'query.segment: a segment name must have a visible character'],
    [
      'a name of two lines',
      '',
      { segment: 'two\nlines' },
      'body.segment: a segment name may not hold control characters or line breaks',
    ],
    [
      'a name of 201 characters',
      '',
      { segment: 'x'.repeat(201) },
      'body.segment: a segment name has at most 200 characters, not 201',
    ],
    ['a number', '', { segment: 7 }, 'body.segment: Invalid input: expected string, received number'],
    ['an unknown field', '', { name: 'a' }, 'body: Unrecognized key: "name"'],
    [
      'two names',
      '?segment=a',
      { segment: 'b' },
      'segment: give the name once, in the query or in the body, not two names',
    ],
  ])('refuses a reset with %s (400), and resets nothing', async (_what, query, body, message) => {
    const run = await start();
    await run.open();
    const before = run.emulator.journal().length;
    const answer = await send(run.device.url, 'POST', `/_emu/reset${query}`, body);
    expect(answer.status).toBe(400);
    expect(refusalOf(answer.body)).toEqual(['BAD_REQUEST', message]);
    expect(run.emulator.journal()).toHaveLength(before);
    expect(run.emulator.sessions()).toHaveLength(1);
    const unnamed = await send(run.device.url, 'PUT', '/_emu/segment', { name: '\u0007' });
    expect(unnamed.status).toBe(400);
    expect(refusalOf(unnamed.body)[1]).toBe('body.name: a segment name may not hold control characters or line breaks');
  });

  it('refuses a bad name given to reset() in code, with BAD_OPTION, before resetting anything', async () => {
    const run = await start();
    await run.open();
    await expect(run.emulator.reset({ segment: '' })).rejects.toMatchObject({ code: 'BAD_OPTION' });
    expect(run.emulator.sessions()).toHaveLength(1);
    expect(() => run.emulator.report({ segments: 'some' as 'all' })).toThrow(
      'segments must be all or current, not "some"',
    );
  });
});
