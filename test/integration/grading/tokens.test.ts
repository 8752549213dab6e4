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
