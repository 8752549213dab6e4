/**
 * Credential rules over real sockets: a session token used twice, refused logins, a client
 * that gives up after `stale=true`, and one that pays a 401 round trip for every request.
 * Each faulty client has a well-behaved twin that must leave no finding.
 */
import { digestAuthorization } from '../../../src';
import { digestRequest } from '../../helpers/digest-request';
import { fetchToken, openWithToken, refusedHandshake, streamTarget, wsUrl } from '../../helpers/event-stream-client';
import { basicAuthorization, challengesOf, type HttpResult, sendRequest } from '../../helpers/http';
import { describeRule, type GradingRun, gradingRig } from './grading-rig';

const start = gradingRig();

const FLAGS = '/svc-cgi/featureflag.cgi';
const LIST_ALL = JSON.stringify({ apiVersion: '1.0', method: 'listAll' });

/** A POST of `listAll` to featureflag.cgi with `headers`. */
function postFlags(run: GradingRun, headers: Record<string, string> = {}): Promise<HttpResult> {
  return sendRequest(run.device.url, {
    method: 'POST',
    path: FLAGS,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: LIST_ALL,
  });
}

/** The digest `Authorization` answering `challenge` for a POST to featureflag.cgi. */
function flagsAuthorization(challenge: HttpResult, nc = 1, password = 'pass'): string {
  return digestAuthorization(challengesOf(challenge), 'root', password, 'POST', FLAGS, { nc });
}

describeRule('token-reused', () => {
  it('finds a token that opened a stream being used again for a reconnect', async () => {
    const run = await start();
    const token = await fetchToken(run.device);
    const first = run.track(await openWithToken(run.device, token));
    await first.close();
    const refused = await refusedHandshake(
      wsUrl(run.device, streamTarget(run.device, `?sources=events&wssession=${token}`)),
    );
    expect(refused.status).toBe(401);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['token-reused', 'error']]);
    expect(findings[0].message).toBe(
      '1 handshake used a session token that had opened a stream already (first: session s1)',
    );
    // The token's fetch, its first use and the refused reuse, linked by the token's number.
    expect(findings[0].evidence).toEqual([
      expect.objectContaining({ kind: 'http', status: 200, token: 1 }),
      expect.objectContaining({ kind: 'ws-open', session: 's1', token: 1 }),
      expect.objectContaining({ kind: 'auth-refused', code: 'TOKEN_REUSED', scheme: 'token', token: 1 }),
    ]);
    expect(JSON.stringify(run.emulator.journal())).not.toContain(token);
    expect(findings[0].client.users).toEqual(['root']);
  });

  it('finds nothing when every connect fetches a fresh token', async () => {
    const run = await start();
    const first = run.track(await openWithToken(run.device, await fetchToken(run.device)));
    await first.close();
    run.track(await openWithToken(run.device, await fetchToken(run.device)));
    expect(run.findings()).toEqual([]);
  });
});

describeRule('auth-failed', () => {
  it('finds a wrong digest password and an unknown Basic user, one finding per code', async () => {
    const run = await start({ basicOverHttp: true });
    for (let i = 0; i < 2; i++) {
      const answer = await digestRequest(run.device.url, {
        method: 'POST',
        path: FLAGS,
        headers: { 'Content-Type': 'application/json' },
        body: LIST_ALL,
        password: 'wrong',
      });
      expect(answer.status).toBe(401);
    }
    expect((await postFlags(run, { Authorization: basicAuthorization('nobody', 'pass') })).status).toBe(401);

    run.advance(5000); // the recover window is over: the client did not try again
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['auth-failed', 'error'],
      ['auth-failed', 'error'],
    ]);
    const [wrongPassword, unknownUser] = findings;
    expect(wrongPassword.message).toBe(
      '2 requests as "root" refused with WRONG_PASSWORD: wrong password for user "root"',
    );
    expect(wrongPassword.evidence.map((e) => e.kind)).toEqual(['auth-refused', 'auth-refused']);
    expect(wrongPassword.evidence).toEqual([
      expect.objectContaining({ code: 'WRONG_PASSWORD', scheme: 'digest', path: FLAGS }),
      expect.objectContaining({ code: 'WRONG_PASSWORD', scheme: 'digest', path: FLAGS }),
    ]);
    expect(unknownUser.message).toBe('1 request as "nobody" refused with UNKNOWN_USER: unknown user "nobody"');
    expect(unknownUser.evidence).toEqual([expect.objectContaining({ kind: 'auth-refused', code: 'UNKNOWN_USER' })]);
    expect(unknownUser.evidence[0]).toMatchObject({ scheme: 'basic', user: 'nobody' });
    // One client (one address) tried both names.
    expect(wrongPassword.client.users).toEqual(['nobody', 'root']);
  });

  it('finds nothing for requests without credentials (the first leg of digest) nor for a good login', async () => {
    const run = await start();
    for (let i = 0; i < 3; i++) expect((await postFlags(run)).status).toBe(401);
    const good = await digestRequest(run.device.url, {
      method: 'POST',
      path: FLAGS,
      headers: { 'Content-Type': 'application/json' },
      body: LIST_ALL,
    });
    expect(good.status).toBe(200);
    expect(run.emulator.journal({ kind: 'auth-refused' }).map((e) => (e as { code: string }).code)).toEqual([
      'NO_CREDENTIALS',
      'NO_CREDENTIALS',
      'NO_CREDENTIALS',
      'NO_CREDENTIALS',
    ]);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('auth-recovered', () => {
  it('takes a nonce from the emulator before (a reboot, a new process) answered with the new challenge as recovered', async () => {
    const before = await start();
    const kept = await postFlags(before); // the challenge the client keeps
    expect(kept.status).toBe(401);
    const run = await start();
    const refused = await postFlags(run, { Authorization: flagsAuthorization(kept) });
    expect(refused.status).toBe(401);
    // What an HTTP library does next: the same request, answering the new challenge.
    expect((await postFlags(run, { Authorization: flagsAuthorization(refused) })).status).toBe(200);

    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity, f.message])).toEqual([
      [
        'auth-recovered',
        'info',
        '1 request refused with BAD_NONCE was tried again and got past the credentials within 5.00 s',
      ],
    ]);
    expect(findings[0].evidence).toEqual([expect.objectContaining({ kind: 'auth-refused', code: 'BAD_NONCE' })]);
  });

  it('is auth-failed when the next try is refused for its credentials too', async () => {
    const before = await start();
    const kept = await postFlags(before);
    const run = await start();
    const refused = await postFlags(run, { Authorization: flagsAuthorization(kept) });
    expect((await postFlags(run, { Authorization: flagsAuthorization(refused, 1, 'wrong') })).status).toBe(401);
    run.advance(5000);
    expect(run.findings().map((f) => [f.rule, f.evidence[0]])).toEqual([
      ['auth-failed', expect.objectContaining({ code: 'BAD_NONCE' })],
      ['auth-failed', expect.objectContaining({ code: 'WRONG_PASSWORD' })],
    ]);
  });
});

describeRule('stale-not-retried', () => {
  /** A digest client whose nonce expires before it answers: the device says 401 stale=true. */
  async function staleAnswer(run: GradingRun): Promise<HttpResult> {
    await run.device.fault('digest', { nonceLifetimeMs: 1000 });
    const challenge = await postFlags(run);
    expect(challenge.status).toBe(401);
    run.advance(2000);
    const stale = await postFlags(run, { Authorization: flagsAuthorization(challenge) });
    expect(stale.status).toBe(401);
    expect(challengesOf(stale).join(' ')).toContain('stale=true');
    return stale;
  }

  it('finds a client that stops after the stale 401, once the 5 s retry window is over', async () => {
    const run = await start();
    await staleAnswer(run);
    run.advance(4000);
    expect(run.findings()).toEqual([]); // the window is still open
    run.advance(1000);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['stale-not-retried', 'error']]);
    expect(findings[0].message).toBe('1 request answered 401 with stale=true was not repeated within 5.00 s');
    expect(findings[0].evidence).toEqual([
      expect.objectContaining({ kind: 'auth-refused', code: 'STALE_NONCE', stale: true, path: FLAGS }),
    ]);
  });

  it('finds nothing when the client repeats the request at once with the new nonce', async () => {
    const run = await start();
    const stale = await staleAnswer(run);
    const retried = await postFlags(run, { Authorization: flagsAuthorization(stale) });
    expect(retried.status).toBe(200);
    run.advance(10_000);
    expect(run.findings()).toEqual([]);
  });
});

describeRule('nonce-not-reused', () => {
  it('finds a client that pays a fresh 401 round trip for each of 4 digest requests', async () => {
    const run = await start();
    for (let i = 0; i < 4; i++) {
      const answer = await digestRequest(run.device.url, {
        method: 'POST',
        path: FLAGS,
        headers: { 'Content-Type': 'application/json' },
        body: LIST_ALL,
      });
      expect(answer.status).toBe(200);
    }
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['nonce-not-reused', 'warning']]);
    expect(findings[0].message).toBe('4 of 4 digest requests were each preceded by a 401 round trip');
    expect(findings[0].evidence.map((e) => e.kind)).toEqual([
      'auth-refused',
      'http',
      'auth-refused',
      'http',
      'auth-refused',
      'http',
      'auth-refused',
      'http',
    ]);
    expect(findings[0].evidence.filter((e) => e.kind === 'auth-refused')).toEqual(
      Array(4).fill(expect.objectContaining({ code: 'NO_CREDENTIALS', path: FLAGS })),
    );
    expect(findings[0].evidence.filter((e) => e.kind === 'http')).toEqual(
      Array(4).fill(expect.objectContaining({ auth: 'digest', status: 200, path: FLAGS })),
    );
  });

  it('finds nothing when the client answers one challenge with nc 1, 2, 3, 4', async () => {
    const run = await start();
    const challenge = await postFlags(run);
    expect(challenge.status).toBe(401);
    for (let nc = 1; nc <= 4; nc++) {
      const answer = await postFlags(run, { Authorization: flagsAuthorization(challenge, nc) });
      expect(answer.status).toBe(200);
    }
    expect(run.findings()).toEqual([]);
  });
});
