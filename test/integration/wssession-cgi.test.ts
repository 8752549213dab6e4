/** wssession.cgi: a short-lived, single-use token for the event stream, behind digest. */
import { digestRequest } from '../helpers/digest-request';
import { basicAuthorization, sendRequest } from '../helpers/http';
import { type DeviceHandle, ManualClock, startDevice } from '../../src';

const PATH = '/svc-cgi/wssession.cgi';
let device: DeviceHandle;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock();
  device = await startDevice({ port: 0, clock, tokenLifetimeMs: 15_000 });
});
afterEach(async () => {
  await device.close();
});

describe('wssession.cgi', () => {
  it.each(['GET', 'POST'])('%s answers a plain-text token: 19 decimal digits, no newline', async (method) => {
    const answer = await digestRequest(device.url, { method, path: PATH });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain\b/);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).toMatch(/^\d{19}$/);
    expect(answer.body).not.toMatch(/\s/);
  });

  it('requires authentication', async () => {
    const answer = await sendRequest(device.url, { path: PATH });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBeDefined();
  });

  it('PUT is 405 with Allow: GET, POST', async () => {
    const answer = await sendRequest(device.url, {
      method: 'PUT',
      path: PATH,
      headers: { Authorization: basicAuthorization('root', 'pass') },
    });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, POST');
  });

  it('every call gives a new token', async () => {
    const a = await digestRequest(device.url, { path: PATH });
    const b = await digestRequest(device.url, { path: PATH });
    expect(a.body).not.toBe(b.body);
  });

  it('a token is good once, then reused', async () => {
    const token = (await digestRequest(device.url, { path: PATH })).body;
    expect(device.consumeToken(token)).toEqual({ ok: true, value: 'root' });
    expect(device.consumeToken(token)).toEqual({
      ok: false,
      error: { code: 'reused', message: 'session token reused' },
    });
  });

  it('a token is valid for tokenLifetimeMs: good at 14 999 ms, expired at 15 000 ms', async () => {
    const early = (await digestRequest(device.url, { path: PATH })).body;
    const late = (await digestRequest(device.url, { path: PATH })).body;
    clock.advance(14_999);
    expect(device.consumeToken(early).ok).toBe(true);
    clock.advance(1);
    expect(device.consumeToken(late)).toEqual({
      ok: false,
      error: { code: 'expired', message: 'session token expired' },
    });
  });

  it('answers 429 with Retry-After once the account holds tokensPerAccount pending tokens (finding 3)', async () => {
    await device.close();
    device = await startDevice({ port: 0, clock, limits: { tokensPerAccount: 2 } });
    for (let i = 0; i < 2; i++) expect((await digestRequest(device.url, { path: PATH })).status).toBe(200);
    clock.advance(5_000);
    const refused = await digestRequest(device.url, { path: PATH });
    expect({ status: refused.status, retryAfter: refused.headers['retry-after'], body: refused.body }).toEqual({
      status: 429,
      retryAfter: '10',
      body: 'too many pending session tokens: user "root" holds 2, at most 2 (each expires 15 s after issue or when used)\n',
    });
    expect(() => device.issueToken('root')).toThrow(/too many pending session tokens/);
    clock.advance(10_000);
    expect((await digestRequest(device.url, { path: PATH })).status).toBe(200);
  });

  it('an unknown token is refused', () => {
    expect(device.consumeToken('NotATokenOfThisDevice0123456789x')).toEqual({
      ok: false,
      error: { code: 'unknown', message: 'session token unknown' },
    });
  });

  it('device.issueToken gives the same kind of token without HTTP', () => {
    const token = device.issueToken('someone');
    expect(token).toMatch(/^\d{19}$/);
    expect(device.consumeToken(token)).toEqual({ ok: true, value: 'someone' });
  });
});
