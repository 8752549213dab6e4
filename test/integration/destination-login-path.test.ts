/**
 * A plain Swift login skips Express while no fault rule is set (issue 29, item 4: a refused
 * login must cost little); with a rule set it goes through the app. Both answer alike: the
 * same status, headers and body for a login, a wrong key, a throttled address and a missing
 * key; `/auth/v1.0` with a query still goes through the app.
 */
import { type DestinationHandle, ManualClock } from '../../src';
import { destinationStarter } from '../helpers/destinations';
import { type HttpResult, sendRequest } from '../helpers/http';

const start = destinationStarter();

/** The answer without what differs per request (date, transaction id, token). */
function shape(answer: HttpResult): Record<string, unknown> {
  const varying = new Set(['date', 'x-trans-id', 'x-openstack-request-id', 'x-auth-token', 'x-storage-token']);
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !varying.has(name)));
  return {
    status: answer.status,
    headers,
    varying: [...varying].filter((name) => name in answer.headers).sort(),
    body: answer.body,
  };
}

/** Logins of every kind (right, wrong, throttled, no key), in order; their answers' shapes. */
async function logins(destination: DestinationHandle, path = '/auth/v1.0'): Promise<Record<string, unknown>[]> {
  const send = (headers: Record<string, string>): Promise<HttpResult> =>
    sendRequest(destination.url, { path, headers });
  const answers = [await send({ 'X-Auth-User': 'bws', 'X-Auth-Key': 'secret' })];
  for (let i = 0; i < 11; i++) answers.push(await send({ 'X-Auth-User': 'bws', 'X-Auth-Key': `guess${i}` }));
  answers.push(await send({ 'X-Auth-User': 'bws' }));
  return answers.map(shape);
}

describe('a plain Swift login', () => {
  it('is answered alike with and without the app (a fault rule set elsewhere sends it through the app)', async () => {
    const fast = await start({ clock: new ManualClock(0), publicUrl: 'http://dest.example' });
    const app = await start({
      clock: new ManualClock(0),
      publicUrl: 'http://dest.example',
      faults: [{ status: 503, pathPrefix: '/v1/AUTH_nobody' }],
    });
    const viaFast = await logins(fast);
    expect(viaFast.map((a) => a.status)).toEqual([200, ...Array<number>(10).fill(401), 429, 401]);
    expect(viaFast[0].varying).toEqual([
      'date',
      'x-auth-token',
      'x-openstack-request-id',
      'x-storage-token',
      'x-trans-id',
    ]);
    expect(await logins(app)).toEqual(viaFast);
  });

  it('with a query goes through the app and is answered the same', async () => {
    const destination = await start({ clock: new ManualClock(0), publicUrl: 'http://dest.example' });
    const other = await start({ clock: new ManualClock(0), publicUrl: 'http://dest.example' });
    expect(await logins(destination, '/auth/v1.0?x=1')).toEqual(await logins(other));
  });
});
