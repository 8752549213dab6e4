/**
 * API version rules over real sockets: a CGI request and an `events:configure` asking for a
 * version the device does not support (JSON-RPC error 2100), and their supported twins.
 */
import { basicAuthorization, type HttpResult, sendRequest } from '../../helpers/http';
import { configureMessage } from '../../helpers/event-stream-client';
import { describeRule, type GradingRun, gradingRig, MOTION, PORT } from './grading-rig';

const start = gradingRig();

const DEVICE_INFO = '/svc-cgi/basicdeviceinfo.cgi';

/** `getAllProperties` of basicdeviceinfo.cgi in API version `apiVersion`, with Basic root / pass (needs `basicOverHttp`). */
async function deviceInfo(run: GradingRun, apiVersion: string): Promise<{ status: number; body: RpcAnswer }> {
  const answer: HttpResult = await sendRequest(run.device.url, {
    method: 'POST',
    path: DEVICE_INFO,
    headers: { 'Content-Type': 'application/json', Authorization: basicAuthorization('root', 'pass') },
    body: JSON.stringify({ apiVersion, method: 'getAllProperties' }),
  });
  return { status: answer.status, body: JSON.parse(answer.body) as RpcAnswer };
}

interface RpcAnswer {
  apiVersion?: string;
  data?: unknown;
  error?: { code: number; message: string };
}

describeRule('unsupported-api-version', () => {
  it('finds a basicdeviceinfo.cgi request for API version 9.9, naming the path', async () => {
    const run = await start({ basicOverHttp: true });
    const answer = await deviceInfo(run, '9.9');
    expect(answer.status).toBe(200);
    expect(answer.body.error?.code).toBe(2100);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['unsupported-api-version', 'error']]);
    expect(findings[0].message).toBe(`1 request asked for an unsupported API version (${DEVICE_INFO})`);
    expect(findings[0].evidence).toEqual([expect.objectContaining({ kind: 'http', path: DEVICE_INFO, status: 200 })]);
    expect(findings[0].evidence[0]).toMatchObject({ error: { code: 2100 } });
    expect(findings[0].client.users).toEqual(['root']);
  });

  it('finds nothing for basicdeviceinfo.cgi in version 1.3', async () => {
    const run = await start({ basicOverHttp: true });
    const answer = await deviceInfo(run, '1.3');
    expect(answer.status).toBe(200);
    expect(answer.body.error).toBeUndefined();
    expect(run.findings()).toEqual([]);
  });

  // A configure refused at the envelope (version 2100) is journaled like any refused configure.
  it('finds an events:configure for API version 9.9 that the device answered with 2100', async () => {
    const run = await start();
    const client = await run.open();
    const answer = await client.request({ ...configureMessage([{ topicFilter: PORT }]), apiVersion: '9.9' });
    expect(answer.error?.code).toBe(2100);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['unsupported-api-version', 'error']]);
    expect(findings[0].message).toBe('1 request asked for an unsupported API version (events:configure)');
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['configure']);
    // The journal keeps the filters the refused request asked for.
    expect(findings[0].evidence[0]).toMatchObject({ filters: [{ topicFilter: PORT }], error: { code: 2100 } });
  });

  it('finds nothing for an events:configure in version 1.0', async () => {
    const run = await start();
    const client = await run.open();
    const answer = await client.configure([{ topicFilter: PORT }, { topicFilter: MOTION }]);
    expect(answer.error).toBeUndefined();
    expect(run.findings()).toEqual([]);
  });
});
