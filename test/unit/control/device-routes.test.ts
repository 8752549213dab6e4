/** The routes that drive one device, over a real server: events, states, flags, sessions. */
import request from 'supertest';
import { EmulatorError } from '../../../src/base/errors';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const device = SERIALS[0];
const PORT = 'tns1:Device/tnsvendor:IO/Port';

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

describe('POST /_emu/events', () => {
  it('publishes on the device of the port and answers the events published', async () => {
    const body = { topic: PORT, source: { port: '1' }, data: { state: '1' }, stateful: true, timestamp: 5 };
    const res = await request(ctl.server).post('/_emu/events').send(body);
    expectAnswer(res, 'post', '/events');
    expect(ctl.emulator.callsOf('publish')).toEqual([
      [PORT, { source: { port: '1' }, key: undefined, data: { state: '1' } }, { stateful: true, timestamp: 5, device }],
    ]);
    expect(res.body).toEqual({
      events: [{ topic: PORT, timestamp: 5, stateful: true, message: { source: { port: '1' }, data: { state: '1' } } }],
    });
  });

  it('answers timestamp null for an event sent without one', async () => {
    const res = await request(ctl.server).post('/_emu/events').send({ topic: PORT, timestamp: null });
    expect((res.body as { events: { timestamp: unknown }[] }).events[0].timestamp).toBeNull();
  });

  it.each([
    [{}, 'body.topic'],
    [{ topic: 'not a topic' }, 'body.topic'],
    [{ topic: PORT, data: { state: 1 } }, 'body.data.state'],
    [{ topic: PORT, extra: 1 }, 'body: Unrecognized key: "extra"'],
    [{ topic: PORT, timestamp: -1 }, 'body.timestamp'],
  ])('refuses %j with 400 BAD_REQUEST naming %s', async (body, field) => {
    const res = await request(ctl.server).post('/_emu/events').send(body);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain(field);
    expect(ctl.emulator.callsOf('publish')).toEqual([]);
  });

  it('refuses a body that is not JSON, and an empty one (as {})', async () => {
    const bad = await request(ctl.server).post('/_emu/events').type('json').send('{"topic":');
    expect(expectRefusal(bad, 400, 'BAD_REQUEST')).toMatch(/^body: not JSON/);
    const none = await request(ctl.server).post('/_emu/events');
    expect(expectRefusal(none, 400, 'BAD_REQUEST')).toMatch(/^body.topic: /);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const data = { big: 'x'.repeat(1024 * 1024) };
    const res = await request(ctl.server).post('/_emu/events').send({ topic: PORT, data });
    expectRefusal(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it("answers the handle's EmulatorError with 400 and its code, TIMEOUT with 408, a bug with 500", async () => {
    ctl.emulator.throwOn.set('publish', new EmulatorError('BAD_EVENT', 'bad event'));
    expect(expectRefusal(await request(ctl.server).post('/_emu/events').send({ topic: PORT }), 400, 'BAD_EVENT')).toBe(
      'bad event',
    );
    ctl.emulator.throwOn.set('publish', new EmulatorError('TIMEOUT', 'too slow'));
    expectRefusal(await request(ctl.server).post('/_emu/events').send({ topic: PORT }), 408, 'TIMEOUT');
    ctl.emulator.throwOn.set('publish', new Error('bug'));
    const bug = await request(ctl.server).post('/_emu/events').send({ topic: PORT });
    expect(bug.status).toBe(500);
    expect(bug.body).toEqual({ error: { code: 'INTERNAL', message: 'internal error; see the log' } });
  });
});

describe('PUT /_emu/states', () => {
  it('sets one state', async () => {
    const res = await request(ctl.server)
      .put('/_emu/states')
      .send({ topic: PORT, source: { port: '2' }, data: { state: '1' } });
    expectAnswer(res, 'put', '/states');
    expect(ctl.emulator.callsOf('setState')).toEqual([
      [PORT, { source: { port: '2' }, key: undefined, data: { state: '1' } }, { device }],
    ]);
  });

  it('sets a list of states in order and answers every event', async () => {
    const states = [1, 2].map((port) => ({ topic: PORT, source: { port: `${port}` }, data: { state: '1' } }));
    const res = await request(ctl.server).put('/_emu/states').send(states);
    expectAnswer(res, 'put', '/states');
    expect((res.body as { events: unknown[] }).events).toHaveLength(2);
    expect(ctl.emulator.callsOf('setState').map((args) => args[1])).toEqual(
      states.map(({ source, data }) => ({ source, key: undefined, data })),
    );
  });

  it.each([
    [{ topic: PORT }, 'body.data'],
    [[{ topic: PORT, data: {} }, { topic: PORT }], 'body.1.data'],
    [[], 'body'],
  ])('refuses %j naming %s, setting nothing', async (body, field) => {
    const res = await request(ctl.server).put('/_emu/states').send(body);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain(`${field}:`);
    expect(ctl.emulator.callsOf('setState')).toEqual([]);
  });
});

describe('/_emu/flags', () => {
  it('GET lists the flags of the device', async () => {
    const res = await request(ctl.server).get('/_emu/flags');
    expectAnswer(res, 'get', '/flags');
    expect((res.body as { flags: { name: string }[] }).flags.map((f) => f.name)).toEqual([
      'graphics_udvd',
      'bwc_gnss_track_upload',
    ]);
    expect(ctl.emulator.callsOf('flags')).toEqual([[{ device }]]);
  });

  it('PUT sets them on the device and answers the flags after', async () => {
    const res = await request(ctl.server).put('/_emu/flags').send({ graphics_udvd: true });
    expectAnswer(res, 'put', '/flags');
    expect(ctl.emulator.callsOf('setFlags')).toEqual([[{ graphics_udvd: true }, { device }]]);
    expect(res.body).toMatchObject({ flags: [{ name: 'graphics_udvd', value: true }, { value: true }] });
  });

  it('PUT refuses an unknown flag with 400 FLAG_NOT_FOUND and changes nothing', async () => {
    const res = await request(ctl.server).put('/_emu/flags').send({ graphics_udvd: true, nope: false });
    expect(expectRefusal(res, 400, 'FLAG_NOT_FOUND')).toBe('Flag(s) does not exist: nope');
    expect(ctl.emulator.callsOf('setFlags')).toEqual([]);
  });

  it('PUT refuses a value that is not a boolean, naming the flag', async () => {
    const res = await request(ctl.server).put('/_emu/flags').send({ graphics_udvd: 'yes' });
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toBe('body.graphics_udvd: a flag is true or false');
  });
});

describe('/_emu/sessions', () => {
  it('GET lists the sessions of the device', async () => {
    const res = await request(ctl.server).get('/_emu/sessions');
    expectAnswer(res, 'get', '/sessions');
    expect(res.body).toMatchObject({ sessions: [{ id: 's1', device, state: 'CONFIGURED' }] });
  });

  it('DELETE closes them with the code and reason given and answers how many', async () => {
    const res = await request(ctl.server).delete('/_emu/sessions?code=1000&reason=bye');
    expectAnswer(res, 'delete', '/sessions');
    expect(res.body).toEqual({ closed: 1 });
    expect(ctl.emulator.callsOf('closeSessions')).toEqual([[1000, { device, reason: 'bye' }]]);
  });

  it('DELETE without a code leaves the default to the emulator', async () => {
    await request(ctl.server).delete('/_emu/sessions').expect(200);
    expect(ctl.emulator.callsOf('closeSessions')).toEqual([[undefined, { device, reason: undefined }]]);
  });

  it.each([
    ['code=1005', 'query.code'],
    ['code=abc', 'query.code'],
    [`reason=${'x'.repeat(124)}`, 'query.reason'],
    ['force=1', 'query: Unrecognized key: "force"'],
  ])('DELETE refuses ?%s naming %s', async (query, field) => {
    const res = await request(ctl.server).delete(`/_emu/sessions?${query}`);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain(field);
    expect(ctl.emulator.callsOf('closeSessions')).toEqual([]);
  });
});
