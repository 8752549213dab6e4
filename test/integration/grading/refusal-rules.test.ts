/**
 * The refusal rules over real sockets: a flag set to the string "true" (2104) and invalid JSON
 * (2101) on featureflag.cgi, a 110 KiB configure (2107), a binary frame and a frame too big for
 * ws (1009), an invalid request sent again in a loop; their correct twins; and what the journal
 * and the log keep of a refused body (its start, never a secret).
 */
import { createLogger } from '../../../src';
import { configureMessage } from '../../helpers/event-stream-client';
import { basicAuthorization, sendRequest } from '../../helpers/http';
import { describeRule, type GradingRun, gradingRig, PORT } from './grading-rig';

const start = gradingRig();

const FLAGS = '/svc-cgi/featureflag.cgi';
const SET_STRING = { apiVersion: '1.0', method: 'set', params: { flagValues: { graphics_udvd: 'true' } } };
const SET_BOOLEAN = { apiVersion: '1.0', method: 'set', params: { flagValues: { graphics_udvd: true } } };

/** POSTs `body` (an object as JSON) to featureflag.cgi with Basic root / pass (needs `basicOverHttp`); the answer's JSON. */
async function callFlags(run: GradingRun, body: unknown): Promise<{ error?: { code: number; message: string } }> {
  const answer = await sendRequest(run.device.url, {
    method: 'POST',
    path: FLAGS,
    headers: { 'Content-Type': 'application/json', Authorization: basicAuthorization('root', 'pass') },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as { error?: { code: number; message: string } };
}

/** A configure of `count` filters: about 110 bytes each. */
function configureOf(count: number): Record<string, unknown> {
  const filters = Array.from({ length: count }, (_, i) => ({ topicFilter: `${PORT}_${String(i).padStart(80, '0')}` }));
  return configureMessage(filters);
}

describeRule('rpc-error', () => {
  it('finds a flag set to the string "true" (2104), with the method and what was sent', async () => {
    const run = await start({ basicOverHttp: true });
    expect((await callFlags(run, SET_STRING)).error?.code).toBe(2104);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['rpc-error', 'error']]);
    const sent = JSON.stringify(SET_STRING);
    expect(findings[0].message).toBe(
      `1 request to ${FLAGS} set answered 2104 Invalid parameter: flag value must be true or false: graphics_udvd; ` +
        `sent (${sent.length} bytes): ${sent}`,
    );
    expect(findings[0].evidence).toHaveLength(1);
    expect(findings[0].evidence[0]).toMatchObject({
      kind: 'http',
      call: 'set',
      error: { code: 2104 },
      body: { bytes: sent.length, text: sent },
    });
  });

  it('finds nothing for the flag set to true, and keeps no body of a successful request', async () => {
    const run = await start({ basicOverHttp: true });
    expect((await callFlags(run, SET_BOOLEAN)).error).toBeUndefined();
    expect(run.findings()).toEqual([]);
    const [http] = run.emulator.journal({ kind: 'http' });
    expect(http).toMatchObject({ call: 'set', status: 200 });
    expect(http).not.toHaveProperty('body');
  });
});

describe('what a refused body leaves in the journal and the log', () => {
  it('keeps the start of invalid JSON, and no secret sent in a body reaches the journal or the log', async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'trace', format: 'json', write: (line) => lines.push(line) });
    const run = await start({ basicOverHttp: true, logger });
    const secret = 'hunter2-Sekret';
    // Invalid JSON with the secret where V8's message would quote it, and valid JSON refused for it.
    expect((await callFlags(run, `{"apiVersion":"1.0","method":"set","password": ${secret}}`)).error?.code).toBe(2101);
    expect((await callFlags(run, { ...SET_STRING, params: { token: secret, flagValues: {} } })).error?.code).toBe(2104);
    const client = await run.open();
    expect((await client.request(`{"method":"events:configure","wssession":"${secret}"`)).error?.code).toBe(2101);
    const journal = JSON.stringify(run.emulator.journal());
    expect(journal).toContain('\\"password\\": [redacted]');
    expect(journal).toContain('\\"token\\":\\"[redacted]\\"');
    expect(journal).toContain('\\"wssession\\":\\"[redacted]\\"');
    expect(journal).not.toContain('hunter2');
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.join('\n')).not.toContain('hunter2');
    expect(run.findings().map((f) => f.rule)).toEqual(['rpc-error', 'rpc-error', 'message-refused']);
  });
});

describeRule('message-refused', () => {
  it('finds a 110 KiB configure refused with 2107, and does not blame configure-missing for it', async () => {
    const run = await start();
    const client = await run.open();
    const message = configureOf(1000);
    const size = Buffer.byteLength(JSON.stringify(message));
    expect(size).toBeGreaterThan(110 * 1024);
    expect((await client.request(message)).error?.code).toBe(2107);
    run.advance(60_000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['message-refused', 'error']]);
    expect(findings[0].message).toMatch(
      new RegExp(
        `^1 message refused with 2107: Request too large: ${size} bytes; the limit is 65536; sent \\(${size} bytes\\): \\{"apiVersion"`,
      ),
    );
    expect(findings[0].evidence).toEqual([
      expect.objectContaining({ kind: 'message-refused', code: 2107, closed: false, binary: false }),
    ]);
  });

  it('finds a binary frame (2101) and an unknown method (2102), one finding each', async () => {
    const run = await start();
    const client = await run.open();
    client.send(Buffer.from(JSON.stringify(configureMessage([{ topicFilter: PORT }]))), { binary: true });
    expect((await client.next()).error?.code).toBe(2101);
    expect((await client.request({ apiVersion: '1.0', method: 'events:subscribe', params: {} })).error?.code).toBe(
      2102,
    );
    expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
    const findings = run.findings();
    expect(findings.map((f) => f.message.split(':')[0])).toEqual([
      '1 message refused with 2101',
      '1 message refused with 2102',
    ]);
    expect(findings[0].evidence[0]).toMatchObject({ kind: 'message-refused', binary: true });
    const [refused] = findings[0].evidence;
    expect(refused.kind === 'message-refused' && refused.sent?.text).toMatch(/^\{"apiVersion/);
  });

  it('finds a frame too big for any message, which ws answers by closing with 1009', async () => {
    const run = await start();
    const client = await run.open();
    client.send(`"${'x'.repeat(1024 * 1024 + 10)}"`);
    expect((await client.waitForClose()).code).toBe(1009);
    const findings = run.findings('message-refused');
    expect(findings.map((f) => f.message)).toEqual([
      '1 session closed with 1009 for a frame the device could not read: Max payload size exceeded',
    ]);
  });

  it('finds nothing for a configure in one text frame within the limit', async () => {
    const run = await start();
    const client = await run.open();
    expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
    run.advance(60_000);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('refused-repeated', () => {
  it('finds an invalid configure sent again in a loop, after each refusal', async () => {
    const run = await start();
    const client = await run.open();
    for (let i = 0; i < 5; i++) {
      expect((await client.configure([{ topicFilter: 'tns1:Device//x' }])).error?.code).toBe(2104);
      run.advance(200);
    }
    const findings = run.findings('refused-repeated');
    expect(findings.map((f) => [f.severity, f.message])).toEqual([
      [
        'warning',
        'events:configure with [{"topicFilter":"tns1:Device//x"}] refused with 2104 was sent again 4 times within 800 ms (at most 2 expected)',
      ],
    ]);
    expect(findings[0].evidence).toHaveLength(5);
  });

  it('finds a 2104 flag write re-sent, and nothing for one retry that fixed the request', async () => {
    const run = await start({ basicOverHttp: true });
    for (let i = 0; i < 3; i++) {
      expect((await callFlags(run, SET_STRING)).error?.code).toBe(2104);
      run.advance(100);
    }
    expect((await callFlags(run, SET_BOOLEAN)).error).toBeUndefined();
    expect(run.findings('refused-repeated')).toEqual([]);
    expect((await callFlags(run, SET_STRING)).error?.code).toBe(2104);
    expect(run.findings('refused-repeated').map((f) => f.message.split(';')[0])).toEqual([
      `POST ${FLAGS} set refused with 2104 was sent again 3 times within 300 ms (at most 2 expected)`,
    ]);
  });
});
