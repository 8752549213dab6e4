/** Health, devices, readiness, unknown routes and methods, and the fleet routes, over a real server. */
import request from 'supertest';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const [device, other] = SERIALS;

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

describe('GET /_emu/health', () => {
  it.each(['starting', 'closing'] as const)('answers 503 { status: %s } until ready', async (state) => {
    ctl.setState(state);
    const res = await request(ctl.server).get('/_emu/health');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: state });
  });

  it('answers 200 { status: ready, devices } once ready', async () => {
    ctl.setState('starting');
    await request(ctl.server).get('/_emu/health').expect(503);
    ctl.setState('ready');
    const res = await request(ctl.server).get('/_emu/health');
    expectAnswer(res, 'get', '/health');
    expect(res.body).toEqual({ status: 'ready', devices: 2 });
  });
});

describe('readiness', () => {
  it('answers 503 NOT_READY to the routes that use the emulator, and serves the document', async () => {
    ctl.setState('starting');
    expect(expectRefusal(await request(ctl.server).get('/_emu/flags'), 503, 'NOT_READY')).toMatch(/starting/);
    expectRefusal(await request(ctl.server).post('/_emu/reset'), 503, 'NOT_READY');
    expectRefusal(await request(ctl.server).get('/_emu/devices'), 503, 'NOT_READY');
    await request(ctl.server).get('/_emu/openapi.json').expect(200);
    expect(ctl.emulator.calls).toEqual([]);
  });
});

describe('GET /_emu/devices', () => {
  it('answers how to reach every device, null for what a device does not have', async () => {
    const res = await request(ctl.server).get('/_emu/devices');
    expectAnswer(res, 'get', '/devices');
    expect(res.body).toEqual([
      {
        serial: device,
        urls: { base: 'http://127.0.0.1:8080' },
        user: 'root',
        password: 'pass',
        realm: 'AXIS_B8A44F',
        control: 'http://127.0.0.1:8080/_emu',
      },
      {
        serial: other,
        urls: { base: 'http://127.0.0.1:8081' },
        user: null,
        password: null,
        realm: 'AXIS_B8A44F',
        control: null,
      },
    ]);
  });
});

describe('GET /_emu/devices?q=&offset=&limit=', () => {
  it('answers the matching devices, a page of them, and how many match in X-Total-Count', async () => {
    const all = await request(ctl.server).get('/_emu/devices');
    expect(all.headers['x-total-count']).toBe('2');
    const second = (all.body as unknown[])[1];
    const found = await request(ctl.server).get('/_emu/devices').query({ q: '127.0.0.1:8081' });
    expectAnswer(found, 'get', '/devices');
    expect(found.body).toEqual([second]);
    expect(found.headers['x-total-count']).toBe('1');
    const paged = await request(ctl.server).get('/_emu/devices').query({ offset: '1', limit: '1' });
    expect(paged.body).toEqual([second]);
    expect(paged.headers['x-total-count']).toBe('2');
  });

  it.each([{ limit: '0' }, { offset: '-1' }, { limit: 'abc' }])('refuses %j with 400 BAD_REQUEST', async (query) => {
    expectRefusal(await request(ctl.server).get('/_emu/devices').query(query), 400, 'BAD_REQUEST');
  });
});

describe('unknown routes and methods', () => {
  it('answers 404 NOT_FOUND under /_emu, logged at info', async () => {
    const message = expectRefusal(await request(ctl.server).get('/_emu/nothing'), 404, 'NOT_FOUND');
    expect(message).toContain('/_emu/nothing');
    expect(ctl.logs).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'control API: refused', status: 404, code: 'NOT_FOUND' }),
    );
  });

  it('answers 405 with Allow to a method a path does not take, logged at info', async () => {
    const res = await request(ctl.server).post('/_emu/flags');
    expectRefusal(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD, PUT');
    const journal = await request(ctl.server).put('/_emu/journal');
    expect(journal.headers.allow).toBe('GET, HEAD, DELETE');
    expect(ctl.logs.filter((l) => l.status === 405 && l.level === 30)).toHaveLength(2);
  });

  it('logs every refusal at info, with its code and reason', async () => {
    await request(ctl.server).put('/_emu/flags').send({ nope: true });
    expect(ctl.logs).toContainEqual(
      expect.objectContaining({ level: 30, status: 400, code: 'FLAG_NOT_FOUND', reason: expect.any(String) as string }),
    );
  });
});

describe('fleet routes', () => {
  it('act on the device named in the path', async () => {
    await request(ctl.server).get(`/_emu/devices/${other}/flags`).expect(200);
    await request(ctl.server).put(`/_emu/devices/${other}/flags`).send({ graphics_udvd: true }).expect(200);
    await request(ctl.server).post(`/_emu/devices/${other}/events`).send({ topic: 'tns1:Device' }).expect(200);
    await request(ctl.server).post(`/_emu/devices/${other}/scenario/pause`).expect(204);
    await request(ctl.server).delete(`/_emu/devices/${other}/sessions?code=4000`).expect(200);
    expect(ctl.emulator.callsOf('setFlags')).toEqual([[{ graphics_udvd: true }, { device: other }]]);
    expect(ctl.emulator.callsOf('publish')[0][2]).toEqual({ device: other, stateful: undefined, timestamp: undefined });
    expect(ctl.emulator.callsOf('pauseScenario')).toEqual([[{ device: other }]]);
    expect(ctl.emulator.callsOf('closeSessions')).toEqual([[4000, { device: other, reason: undefined }]]);
    const firstFlag = async (path: string): Promise<unknown> =>
      ((await request(ctl.server).get(path)).body as { flags: unknown[] }).flags[0];
    expect(await firstFlag(`/_emu/devices/${other}/flags`)).toMatchObject({ name: 'graphics_udvd', value: true });
    expect(await firstFlag('/_emu/flags')).toMatchObject({ name: 'graphics_udvd', value: false });
  });

  it.each([
    ['POST', '/events', 'publish'],
    ['GET', '/feed', 'watchJournal'],
  ] as const)(
    'answer %s %s of a serial no device has 404 NO_SUCH_DEVICE, before looking at the body; the emulator untouched',
    async (method, path, touched) => {
      const res = await request(ctl.server)[method === 'POST' ? 'post' : 'get'](`/_emu/devices/NOPE${path}`).send({});
      expect(expectRefusal(res, 404, 'NO_SUCH_DEVICE')).toContain('"NOPE"');
      expect(ctl.emulator.callsOf(touched)).toEqual([]);
      expect(ctl.emulator.journalRing.watchers).toBe(0);
    },
  );

  it('are not served without fleetRoutes', async () => {
    const single = await startControl({ fleetRoutes: false });
    try {
      expectRefusal(await request(single.server).get(`/_emu/devices/${device}/flags`), 404, 'NOT_FOUND');
      await request(single.server).get('/_emu/flags').expect(200);
    } finally {
      await single.close();
    }
  });
});
