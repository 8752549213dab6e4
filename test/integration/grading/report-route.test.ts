/**
 * `GET /_emu/report` on a device's port: the same report as `emulator.report()` (this
 * device's findings; every device's with `?all=true`), a 400 for a bad query, and the
 * route in `/_emu/openapi.json`.
 */
import { type EmulatorHandle, loadScenario, startEmulator } from '../../../src';
import { ManualClock } from '../../../src/base/clock';
import type { GradingReport } from '../../../src/grading/report';
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
    const unknown = await getJson(run.device.url, '/_emu/report?everything=true');
    expect(unknown.status).toBe(400);
    expect(refusalOf(unknown.body)).toEqual(['BAD_REQUEST', 'query: Unrecognized key: "everything"']);
  });

  it('is in /_emu/openapi.json with its all query parameter', async () => {
    const run = await start();
    const answer = await getJson(run.device.url, '/_emu/openapi.json');
    expect(answer.status).toBe(200);
    const paths = (answer.body as { paths: Record<string, Record<string, unknown>> }).paths;
    const operation = paths['/_emu/report']?.get as
      { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> } | undefined;
    expect(operation).toBeDefined();
    expect(operation?.parameters?.map((p) => [p.in, p.name])).toEqual([['query', 'all']]);
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
