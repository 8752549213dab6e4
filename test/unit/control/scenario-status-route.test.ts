/** `GET /_emu/scenario` over a real server with the fake emulator: what it asks, what it answers. */
import request from 'supertest';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const [device, other] = SERIALS;

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

describe('GET /_emu/scenario', () => {
  it("answers the status of the port's device as the emulator gives it", async () => {
    ctl.emulator.scenario = { name: null, state: 'finished', positionMs: 12.5, speed: 0.5, revision: 3, topics: [] };
    const res = await request(ctl.server).get('/_emu/scenario');
    expectAnswer(res, 'get', '/scenario');
    expect(res.body).toEqual({ name: null, state: 'finished', positionMs: 12.5, speed: 0.5, revision: 3, topics: [] });
    expect(ctl.emulator.callsOf('scenarioStatus')).toEqual([[{ device }]]);
  });

  it('answers for the device of the fleet route, and 404 for a serial no device has', async () => {
    expectAnswer(await request(ctl.server).get(`/_emu/devices/${other}/scenario`), 'get', '/devices/{serial}/scenario');
    expect(ctl.emulator.callsOf('scenarioStatus')).toEqual([[{ device: other }]]);
    expectRefusal(await request(ctl.server).get('/_emu/devices/NOPE/scenario'), 404, 'NO_SUCH_DEVICE');
  });

  it('takes no query and no other method than GET (and PUT, to replace it)', async () => {
    expectRefusal(await request(ctl.server).delete('/_emu/scenario'), 405, 'METHOD_NOT_ALLOWED');
  });
});
