/** The fault switch routes over a real server: the catalogue, switching on and off, refusals. */
import request from 'supertest';
import { EmulatorError } from '../../../src/base/errors';
import { FAULT_NAMES } from '../../../src/protocol/fault-catalogue';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const device = SERIALS[0];

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

describe('GET /_emu/faults/switches', () => {
  it('lists every switch of the catalogue with what it does, exposes and comes from', async () => {
    const res = await request(ctl.server).get('/_emu/faults/switches');
    expectAnswer(res, 'get', '/faults/switches');
    const switches = (res.body as { switches: { name: string; does: string; source: string }[] }).switches;
    expect(switches.map((s) => s.name)).toEqual(FAULT_NAMES);
    for (const s of switches) expect(s.does.length * s.source.length).toBeGreaterThan(0);
  });
});

describe('POST /_emu/faults', () => {
  it('switches the named fault on, on the device of the port, with its parameters', async () => {
    const res = await request(ctl.server).post('/_emu/faults').send({ name: 'stall', pings: false, forMs: 500 });
    expectAnswer(res, 'post', '/faults');
    expect(ctl.emulator.callsOf('fault')).toEqual([['stall', { pings: false, forMs: 500 }, { device }]]);
    const { faults } = res.body as { faults: { since: unknown }[] };
    expect(typeof faults[0].since).toBe('number');
    expect(faults).toEqual([
      { name: 'stall', params: { pings: false, forMs: 500 }, since: faults[0].since, until: null, device },
    ]);
  });

  it('fills the defaults of the catalogue before the emulator sees them', async () => {
    await request(ctl.server).post('/_emu/faults').send({ name: 'slots' });
    const [[, params]] = ctl.emulator.callsOf('fault');
    expect(params).toEqual({ max: 4, overflow: 'evict', code: 1008, reason: 'event subscription slots exhausted' });
  });

  it.each([
    [{}, 'body.name'],
    [{ name: 'nope' }, 'body.name'],
    [{ name: 'stall', pings: 'no' }, 'body.pings'],
    [{ name: 'stall', extra: 1 }, 'Unrecognized key: "extra"'],
    [{ name: 'drop', mode: 'close', code: 1005 }, 'body.code'],
    [{ name: 'slots', max: 0 }, 'body.max'],
    [{ name: 'cgi', status: 500 }, 'body.status'],
  ])('refuses %j with 400 BAD_REQUEST naming %s', async (body, field) => {
    const res = await request(ctl.server).post('/_emu/faults').send(body);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain(field);
    expect(ctl.emulator.callsOf('fault')).toEqual([]);
  });

  it('answers a BAD_FAULT from the emulator with 400 and its code', async () => {
    ctl.emulator.throwOn.set('fault', new EmulatorError('BAD_FAULT', 'busy'));
    const res = await request(ctl.server).post('/_emu/faults').send({ name: 'reboot' });
    expect(expectRefusal(res, 400, 'BAD_FAULT')).toBe('busy');
  });
});

describe('GET and DELETE /_emu/faults', () => {
  it('lists the switches that are on', async () => {
    const res = await request(ctl.server).get('/_emu/faults');
    expectAnswer(res, 'get', '/faults');
    expect(res.body).toEqual({ faults: [{ name: 'stall', params: { pings: true }, since: 1, until: null, device }] });
  });

  it('switches off the one named, or every one', async () => {
    const one = await request(ctl.server).delete('/_emu/faults?name=stall');
    expectAnswer(one, 'delete', '/faults');
    expect(one.body).toEqual({ cleared: ['stall'] });
    await request(ctl.server).delete('/_emu/faults');
    expect(ctl.emulator.callsOf('clearFaults')).toEqual([
      ['stall', { device }],
      [undefined, { device }],
    ]);
    const bad = await request(ctl.server).delete('/_emu/faults?name=nope');
    expectRefusal(bad, 400, 'BAD_REQUEST');
  });

  it('serves the fleet form on /devices/{serial}/faults', async () => {
    const res = await request(ctl.server).post(`/_emu/devices/${SERIALS[1]}/faults`).send({ name: 'no-websocket' });
    expect(res.status).toBe(200);
    expect(ctl.emulator.callsOf('fault')).toEqual([['no-websocket', {}, { device: SERIALS[1] }]]);
  });
});
