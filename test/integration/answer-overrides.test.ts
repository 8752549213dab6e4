/** Answer overrides over a real socket: after auth, counted, journaled with their id, cleared by reset. */
import { systemClock } from '../../src/base/clock';
import { type HttpEntry, Journal } from '../../src/base/journal';
import { type DeviceHandle, startDevice } from '../../src';
import { digestRequest } from '../helpers/digest-request';
import { callFeatureFlags } from '../helpers/rpc-client';

const LIST_ALL = { apiVersion: '1.0', context: 'c', method: 'listAll' };

let device: DeviceHandle;
let journal: Journal;
beforeEach(async () => {
  journal = new Journal(systemClock);
  device = await startDevice({ port: 0, journal });
});
afterEach(async () => {
  await device.close();
});

/** The journal's http entries, in order. */
function httpEntries(): HttpEntry[] {
  return journal.entries({ kind: 'http' }).filter((e): e is HttpEntry => e.kind === 'http');
}

/** POSTs listAll to featureflag.cgi without decoding (an override may answer text). */
function postListAll(password = 'pass'): ReturnType<typeof digestRequest> {
  return digestRequest(device.url, {
    method: 'POST',
    path: new URL(device.urls.featureFlags).pathname,
    body: JSON.stringify(LIST_ALL),
    headers: { 'Content-Type': 'application/json' },
    password,
  });
}

it('answers listAll with error 2104 once, then the real answer, both journaled as answered', async () => {
  const made = device.override({
    cgi: 'featureflag.cgi',
    method: 'listAll',
    answer: { error: { code: 2104, message: 'Device busy' } },
    times: 1,
  });
  expect(made).toMatchObject({ id: 'o1', answered: 0 });
  const first = await callFeatureFlags(device, LIST_ALL);
  expect(first.status).toBe(200);
  expect(first.json).toEqual({
    apiVersion: '1.0',
    context: 'c',
    method: 'listAll',
    error: { code: 2104, message: 'Device busy' },
  });
  const second = await callFeatureFlags(device, LIST_ALL);
  expect(second.json.data).toBeDefined();
  expect(device.overrides()).toEqual([]);
  const [answered, real] = httpEntries().filter((e) => e.status !== 401);
  expect(answered).toMatchObject({ status: 200, call: 'listAll', error: { code: 2104 }, override: 'o1' });
  expect(real.override).toBeUndefined();
  expect(real.error).toBeUndefined();
});

it('answers HTTP 500 twice (times: 2), then the real answer', async () => {
  device.override({ cgi: 'featureflag.cgi', answer: { status: 500, body: 'boom' }, times: 2 });
  const statuses = [];
  for (let i = 0; i < 3; i++) statuses.push((await postListAll()).status);
  expect(statuses).toEqual([500, 500, 200]);
  expect(
    httpEntries()
      .filter((e) => e.override === 'o1')
      .map((e) => e.status),
  ).toEqual([500, 500]);
});

it('answers a JSON body, and matches by a substring of the body', async () => {
  device.override({ cgi: 'featureflag.cgi', match: '"other"', answer: { body: { odd: true } } });
  expect((await callFeatureFlags(device, LIST_ALL)).json.data).toBeDefined();
  const odd = await callFeatureFlags(device, { ...LIST_ALL, context: 'other' });
  expect(odd.json).toEqual({ odd: true });
  expect(device.overrides()).toMatchObject([{ id: 'o1', answered: 1 }]);
});

it('delays the real answer', async () => {
  device.override({ cgi: 'featureflag.cgi', method: 'listAll', answer: { delayMs: 300 } });
  const started = Date.now();
  const answer = await callFeatureFlags(device, LIST_ALL);
  expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  expect(answer.json.data).toBeDefined();
  expect(httpEntries().at(-1)).toMatchObject({ status: 200, override: 'o1' });
});

it('answers a CGI that is not JSON-RPC (wssession.cgi, off its fast path)', async () => {
  device.override({ cgi: 'wssession.cgi', answer: { status: 503 }, times: 1 });
  const path = new URL(device.urls.sessionToken).pathname;
  expect((await digestRequest(device.url, { method: 'GET', path })).status).toBe(503);
  expect((await digestRequest(device.url, { method: 'GET', path })).status).toBe(200);
});

it('is cleared by reset() and by clearOverrides(id)', async () => {
  device.override({ cgi: 'featureflag.cgi', answer: { status: 500 } });
  const second = device.override({ cgi: 'param.cgi', answer: { status: 500 } });
  expect(device.clearOverrides(second.id)).toEqual([second.id]);
  await device.reset();
  expect(device.overrides()).toEqual([]);
  expect((await postListAll()).status).toBe(200);
});

it('never bypasses auth: a wrong password is still 401 and leaves the override unused', async () => {
  device.override({ cgi: 'featureflag.cgi', answer: { status: 500 }, times: 1 });
  expect((await postListAll('wrong')).status).toBe(401);
  expect(device.overrides()).toMatchObject([{ answered: 0 }]);
  expect((await postListAll()).status).toBe(500);
});
