/** The answer override routes over a real server: make, list, remove, refusals, fleet paths. */
import request from 'supertest';
import { EmulatorError } from '../../../src/base/errors';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const device = SERIALS[0];

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

describe('POST /_emu/overrides', () => {
  it('makes the override on the device of the port and answers it with its id', async () => {
    const spec = {
      cgi: 'featureflag.cgi',
      method: 'listAll',
      answer: { error: { code: 2104, message: 'x' } },
      times: 1,
    };
    const res = await request(ctl.server).post('/_emu/overrides').send(spec);
    expectAnswer(res, 'post', '/overrides');
    expect(ctl.emulator.callsOf('override')).toEqual([[spec, { device }]]);
    expect(res.body).toEqual({ overrides: [{ ...spec, id: 'o1', answered: 0, device }] });
  });

  it.each([
    [{ answer: { status: 500 } }, 'body.cgi'],
    [{ cgi: 'featureflag.cgi' }, 'body.answer'],
    [{ cgi: 'featureflag.cgi', answer: { status: 99 } }, 'body.answer'],
    [{ cgi: 'featureflag.cgi', answer: { error: { code: 'x', message: 'm' } } }, 'body.answer'],
    [{ cgi: 'featureflag.cgi', answer: { status: 500 }, times: 0 }, 'body.times'],
  ])('refuses %j with 400 BAD_REQUEST naming %s', async (body, field) => {
    const res = await request(ctl.server).post('/_emu/overrides').send(body);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain(field);
    expect(ctl.emulator.callsOf('override')).toEqual([]);
  });

  it('answers a BAD_OVERRIDE from the emulator (unknown CGI or method) with 400 and its message', async () => {
    ctl.emulator.throwOn.set('override', new EmulatorError('BAD_OVERRIDE', 'override: no CGI "nope.cgi"'));
    const res = await request(ctl.server)
      .post('/_emu/overrides')
      .send({ cgi: 'nope.cgi', answer: { status: 500 } });
    expect(expectRefusal(res, 400, 'BAD_OVERRIDE')).toContain('no CGI "nope.cgi"');
  });
});

describe('GET and DELETE /_emu/overrides', () => {
  it('lists the overrides of the device', async () => {
    const res = await request(ctl.server).get('/_emu/overrides');
    expectAnswer(res, 'get', '/overrides');
    expect(ctl.emulator.callsOf('overrides')).toEqual([[{ device }]]);
  });

  it('removes the one named, or every one', async () => {
    const one = await request(ctl.server).delete('/_emu/overrides?id=o3');
    expectAnswer(one, 'delete', '/overrides');
    expect(one.body).toEqual({ cleared: ['o3'] });
    await request(ctl.server).delete('/_emu/overrides');
    expect(ctl.emulator.callsOf('clearOverrides')).toEqual([
      ['o3', { device }],
      [undefined, { device }],
    ]);
  });

  it('acts on the device a fleet path names', async () => {
    const res = await request(ctl.server).get(`/_emu/devices/${SERIALS[1]}/overrides`);
    expect(res.status).toBe(200);
    expect(ctl.emulator.callsOf('overrides')).toEqual([[{ device: SERIALS[1] }]]);
  });
});
