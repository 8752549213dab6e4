/** Answer overrides through the control API of a real emulator: made, answered, listed, refused, reset. */
import { type EmulatorHandle, loadScenario, startEmulator } from '../../src';
import { digestRequest } from '../helpers/digest-request';
import { callFeatureFlags } from '../helpers/rpc-client';

const QUIET = loadScenario('name: quiet\ntimeline:\n  - pause: 1h\n', 'quiet.yaml');
const LIST_ALL = { apiVersion: '1.0', method: 'listAll' };

let emulator: EmulatorHandle;
let control: string;
beforeEach(async () => {
  if (!QUIET.ok) throw new Error(QUIET.error.message);
  emulator = await startEmulator({ scenarios: [{ scenario: QUIET.value }], device: { port: 0 } });
  control = `${emulator.devices[0].device.url}/_emu`;
});
afterEach(() => emulator.close());

/** What the override routes answer (an error answer has `error`). */
interface Answer {
  overrides: { id: string; answered: number }[];
  cleared: string[];
  error: { code: string; message: string };
}

/** A control API call, its status and JSON. */
async function call(path: string, method = 'GET', body?: unknown): Promise<{ status: number; json: Answer }> {
  const res = await fetch(`${control}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Answer };
}

it('POST makes an override the device answers with; GET lists it; the journal names it', async () => {
  const made = await call('/overrides', 'POST', {
    cgi: 'featureflag.cgi',
    method: 'listAll',
    answer: { error: { code: 2104, message: 'busy' } },
    times: 1,
  });
  expect(made.status).toBe(200);
  const { id } = made.json.overrides[0];
  expect((await call('/overrides')).json.overrides).toMatchObject([{ id, answered: 0 }]);
  const device = emulator.devices[0].device;
  expect((await callFeatureFlags(device, LIST_ALL)).json.error).toEqual({ code: 2104, message: 'busy' });
  expect((await callFeatureFlags(device, LIST_ALL)).json.data).toBeDefined();
  expect((await call('/overrides')).json.overrides).toEqual([]);
  const answered = emulator.journal({ kind: 'http' }).filter((e) => 'override' in e && e.override === id);
  expect(answered).toHaveLength(1);
});

it.each([
  [{ cgi: 'nope.cgi', answer: { status: 500 } }, /no CGI "nope.cgi"; CGIs: featureflag.cgi/],
  [{ cgi: 'featureflag.cgi', method: 'listEverything', answer: { status: 500 } }, /methods: .*listAll/],
  [{ cgi: 'param.cgi', answer: { error: { code: 1, message: 'x' } } }, /not JSON-RPC/],
])('refuses %j with 400 BAD_OVERRIDE', async (body, message) => {
  const res = await call('/overrides', 'POST', body);
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe('BAD_OVERRIDE');
  expect(res.json.error.message).toMatch(message);
});

it('DELETE removes by id; reset removes every one', async () => {
  const first = (await call('/overrides', 'POST', { cgi: 'featureflag.cgi', answer: { status: 500 } })).json;
  await call('/overrides', 'POST', { cgi: 'param.cgi', answer: { status: 500 } });
  expect((await call(`/overrides?id=${first.overrides[0].id}`, 'DELETE')).json).toEqual({ cleared: ['o1'] });
  expect(emulator.overrides()).toHaveLength(1);
  await emulator.reset();
  expect(emulator.overrides()).toEqual([]);
});

it('a scenario step makes an override on its device', async () => {
  await emulator.close();
  const scenario = loadScenario(
    [
      'name: busy-flags',
      'timeline:',
      '  - override: { cgi: featureflag.cgi, method: listAll, answer: { status: 503, body: busy }, times: 1 }',
      '  - pause: 1h',
    ].join('\n'),
    'busy.yaml',
  );
  if (!scenario.ok) throw new Error(scenario.error.message);
  emulator = await startEmulator({ scenarios: [{ scenario: scenario.value }], device: { port: 0 } });
  const deadline = Date.now() + 2000;
  while (emulator.overrides().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(emulator.overrides()).toMatchObject([{ cgi: 'featureflag.cgi', times: 1, answered: 0 }]);
  const device = emulator.devices[0].device;
  const answer = await fetchStatus(device);
  expect(answer).toBe(503);
});

it("a scenario's override of a CGI or method the device does not have is BAD_SCENARIO where it comes in, naming the step", async () => {
  const bad = loadScenario(
    [
      'name: typo',
      'timeline:',
      '  - pause: 1s',
      '  - steps:',
      '      - override: { cgi: featureflag.cgi, method: listEverything, answer: { status: 503 } }',
      'groups:',
      '  later:',
      '    - override: { cgi: nosuch.cgi, answer: { status: 503 } }',
    ].join('\n'),
    'typo.yaml',
  );
  if (!bad.ok) throw new Error(bad.error.message);
  // Through the control API: refused, and the running scenario keeps running.
  const res = await fetch(`${control}/scenario`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/yaml' },
    body: 'name: typo\ntimeline:\n  - override: { cgi: nosuch.cgi, answer: { status: 503 } }\n',
  });
  const json = (await res.json()) as Answer;
  expect([res.status, json.error.code]).toEqual([400, 'BAD_SCENARIO']);
  expect(json.error.message).toContain('timeline[0]: override: no CGI "nosuch.cgi"');
  expect(emulator.scenarioStatus().name).toBe('quiet');
  // At start: the emulator does not start, and says which steps.
  const started = startEmulator({ scenarios: [{ scenario: bad.value }], device: { port: 0 } });
  await expect(started).rejects.toMatchObject({ code: 'BAD_SCENARIO' });
  const message = await started.catch((error: Error) => error.message);
  expect(message).toContain('timeline[1].steps[0]: override: featureflag.cgi has no method "listEverything"');
  expect(message).toContain('groups.later[0]: override: no CGI "nosuch.cgi"');
});

/** The status of a listAll POST to the device (digest auth). */
async function fetchStatus(device: EmulatorHandle['devices'][number]['device']): Promise<number> {
  const res = await digestRequest(device.url, {
    method: 'POST',
    path: new URL(device.urls.featureFlags).pathname,
    body: JSON.stringify(LIST_ALL),
    headers: { 'Content-Type': 'application/json' },
  });
  return res.status;
}
