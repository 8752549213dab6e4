/**
 * The waste rules over real sockets, on the rig's manual clock: `listAll` polled every 50 ms and
 * every 2 s, session tokens fetched for every message and one per connect.
 */
import { openWithToken } from '../../helpers/event-stream-client';
import { basicAuthorization, sendRequest } from '../../helpers/http';
import { describeRule, type GradingRun, gradingRig, PORT } from './grading-rig';

const start = gradingRig();

const FLAGS = '/svc-cgi/featureflag.cgi';

/** `listAll` on featureflag.cgi with Basic root / pass (needs `basicOverHttp`). */
async function listAll(run: GradingRun): Promise<void> {
  const answer = await sendRequest(run.device.url, {
    method: 'POST',
    path: FLAGS,
    headers: { 'Content-Type': 'application/json', Authorization: basicAuthorization('root', 'pass') },
    body: JSON.stringify({ apiVersion: '1.0', method: 'listAll' }),
  });
  expect(answer.status).toBe(200);
}

/** A `wssession.cgi` token fetched with Basic root / pass (needs `basicOverHttp`: no digest first leg). */
async function fetchToken(run: GradingRun): Promise<string> {
  const answer = await sendRequest(run.device.url, {
    method: 'GET',
    path: new URL(run.device.urls.sessionToken).pathname,
    headers: { Authorization: basicAuthorization('root', 'pass') },
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

describeRule('polling', () => {
  it('finds listAll every 50 ms for 5 s', async () => {
    const run = await start({ basicOverHttp: true });
    for (let i = 0; i < 100; i++) {
      await listAll(run);
      run.advance(50);
    }
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['polling', 'warning']]);
    expect(findings[0].message).toBe(
      `100 requests to ${FLAGS} listAll within 4.95 s, one every 50 ms on average (at most 60 per 60.0 s expected; 100 in all)`,
    );
    expect(findings[0].evidence[0]).toMatchObject({ kind: 'http', call: 'listAll', path: FLAGS });
    expect(findings[0].moreEvidence).toBe(90);
  });

  it('finds nothing for listAll every 2 s for 4 minutes', async () => {
    const run = await start({ basicOverHttp: true });
    for (let i = 0; i < 120; i++) {
      await listAll(run);
      run.advance(2000);
    }
    expect(run.findings()).toEqual([]);
  });
});

describeRule('token-unused', () => {
  it('finds a session token fetched for every message, only the first used', async () => {
    const run = await start({ basicOverHttp: true });
    const client = run.track(await openWithToken(run.device, await fetchToken(run)));
    expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
    for (let i = 0; i < 4; i++) {
      await fetchToken(run);
      run.advance(1000);
    }
    // Still valid: they may yet be used.
    expect(run.findings()).toEqual([]);
    run.advance(15_000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      ['token-unused', 'warning', '4 of 5 session tokens fetched were never used for a handshake'],
    ]);
    expect(findings[0].evidence.map((e) => [e.kind, e.kind === 'http' && e.status])).toEqual(
      Array.from({ length: 4 }, () => ['http', 200]),
    );
  });

  it('finds nothing for a token fetched right before each of 5 connects', async () => {
    const run = await start({ basicOverHttp: true });
    for (let i = 0; i < 5; i++) {
      const client = run.track(await openWithToken(run.device, await fetchToken(run)));
      expect((await client.configure([{ topicFilter: PORT }])).error).toBeUndefined();
      await client.close();
      run.advance(3000);
    }
    run.advance(60_000);
    expect(run.findings()).toEqual([]);
  });
});
