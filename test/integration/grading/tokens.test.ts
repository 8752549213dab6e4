/** Session token rules over real sockets: a token used after its 15 s, a token used twice. */
import { fetchToken, refusedHandshake, streamTarget, wsUrl } from '../../helpers/event-stream-client';
import { describeRule, gradingRig } from './grading-rig';

const start = gradingRig();

describeRule('token-expired', () => {
  it('finds a token fetched 16 s before the handshake, with the fetch and the age as evidence', async () => {
    const run = await start();
    const token = await fetchToken(run.device);
    run.advance(16_000);
    const refused = await refusedHandshake(
      wsUrl(run.device, streamTarget(run.device, `?sources=events&wssession=${token}`)),
    );
    expect(refused.status).toBe(401);
    const findings = run.findings();
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['token-expired', 'error']]);
    expect(findings[0].message).toBe('1 handshake used an expired session token, 16.0 s after the token was fetched');
    expect(findings[0].client.users).toEqual(['root']);
    expect(findings[0].evidence.map((e) => e.kind)).toEqual(['http', 'auth-refused']);
  });

  it('finds nothing when the token is fetched right before the handshake', async () => {
    const run = await start();
    run.advance(16_000);
    const token = await fetchToken(run.device);
    run.track(await (await import('../../helpers/event-stream-client')).openWithToken(run.device, token));
    expect(run.findings()).toEqual([]);
  });
});

describeRule('token-altered', () => {
  /** Fetches a token, sends it back as `alter` makes it, and returns the refused handshake's status. */
  async function sendBack(run: Awaited<ReturnType<typeof start>>, alter: (token: string) => string): Promise<number> {
    const token = await fetchToken(run.device);
    expect(token).toMatch(/^\d{19}$/);
    const target = streamTarget(run.device, `?sources=events&wssession=${encodeURIComponent(alter(token))}`);
    return (await refusedHandshake(wsUrl(run.device, target))).status;
  }

  it('notes (info) a token parsed as JSON: rounded, with the fetch as evidence; the refusal is auth-failed', async () => {
    const run = await start();
    // What a JavaScript client does with JSON.parse(body): a double, printed back.
    expect(await sendBack(run, (token) => String(JSON.parse(token)))).toBe(401);
    const [note] = run.findings('token-altered');
    expect([note.severity, note.message]).toEqual([
      'info',
      '1 handshake sent back a session token the device issued, altered: rounded to the precision of a double (the body parsed as a JSON number?)',
    ]);
    expect(note.evidence.map((e) => e.kind)).toEqual(['http', 'auth-refused']);
    // The refusal itself is the client's failure, once it has had its time to try again.
    run.advance(60_000);
    expect(run.findings('auth-failed').map((f) => f.severity)).toEqual(['error']);
  });

  it('notes a token sent in quotes and one in exponent form, and says both', async () => {
    const run = await start();
    expect(await sendBack(run, (token) => JSON.stringify(token))).toBe(401);
    expect(await sendBack(run, (token) => Number(token).toExponential())).toBe(401);
    expect(run.findings('token-altered').map((f) => f.message)).toEqual([
      '2 handshakes sent back a session token the device issued, altered: in quotes; as a number in exponent form (the body parsed as a JSON number?)',
    ]);
  });

  it('says nothing for a token the device never issued, nor for one used as it came', async () => {
    const run = await start();
    await fetchToken(run.device);
    const target = streamTarget(run.device, `?sources=events&wssession=${'1'.repeat(19)}`);
    expect((await refusedHandshake(wsUrl(run.device, target))).status).toBe(401);
    run.track(await (await import('../../helpers/event-stream-client')).openWithToken(run.device));
    expect(run.findings('token-altered')).toEqual([]);
  });
});
