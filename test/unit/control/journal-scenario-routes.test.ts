/** The journal, scenario and reset routes, over a real server. */
import request from 'supertest';
import type { JournalRecord } from '../../../src/base/journal';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const [device, other] = SERIALS;

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

/** Records `n` notifications of `serial` in the fake's journal (it keeps 4). */
function notify(n: number, serial: string = device): void {
  for (let i = 0; i < n; i++) {
    const record: JournalRecord = {
      kind: 'notification',
      device: serial,
      session: 's1',
      topic: 'tns1:Device',
      event: i + 1,
    };
    ctl.emulator.journalRing.record(record);
  }
}

/** The seq numbers and dropped count `GET /_emu/journal` answers. */
async function readSeqs(path = '/_emu/journal'): Promise<{ seqs: number[]; dropped: number }> {
  const res = await request(ctl.server).get(path);
  expectAnswer(res, 'get', '/journal');
  const body = res.body as { entries: { seq: number }[]; dropped: number };
  return { seqs: body.entries.map((e) => e.seq), dropped: body.dropped };
}

describe('GET /_emu/journal', () => {
  it("answers the entries of the port's device and the dropped count", async () => {
    notify(1);
    notify(1, other);
    ctl.emulator.journalRing.record({
      kind: 'ws-close',
      device,
      session: 's1',
      code: 1001,
      reason: 'bye',
      by: 'device',
    });
    expect(await readSeqs()).toEqual({ seqs: [1, 3], dropped: 0 });
    expect(ctl.emulator.callsOf('journal')).toEqual([[{ device }]]);
  });

  it.each(['kind=ws-close,notification&since=2', 'kind=ws-close&kind=notification&since=2'])(
    'passes the filters of ?%s',
    async (query) => {
      await request(ctl.server).get(`/_emu/journal?${query}&session=s1&topic=tns1:Device`).expect(200);
      expect(ctl.emulator.callsOf('journal')).toEqual([
        [{ since: 2, kind: ['ws-close', 'notification'], session: 's1', topic: 'tns1:Device', device }],
      ]);
    },
  );

  it.each([
    ['kind=http,nope', 'query.kind.1'],
    ['since=soon', 'query.since'],
    ['since=-1', 'query.since'],
    ['since=', 'query.since'],
    ['since=%20', 'query.since'],
    ['since=0x10', 'query.since'],
    ['since=1e3', 'query.since'],
    ['since=1.5', 'query.since'],
    ['device=x', 'query: Unrecognized key: "device"'],
  ])('refuses ?%s naming %s', async (query, field) => {
    const res = await request(ctl.server).get(`/_emu/journal?${query}`);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain(field);
  });
});

describe('DELETE /_emu/journal', () => {
  it('clears it: later reads show only new entries, and count as dropped only new entries pushed out', async () => {
    notify(6);
    expect(await readSeqs()).toEqual({ seqs: [3, 4, 5, 6], dropped: 2 });
    expectAnswer(await request(ctl.server).delete('/_emu/journal'), 'delete', '/journal');
    expect(await readSeqs()).toEqual({ seqs: [], dropped: 0 });
    notify(2); // pushes out two cleared entries: nothing lost
    expect(await readSeqs()).toEqual({ seqs: [7, 8], dropped: 0 });
    notify(4); // pushes out 7 and 8
    expect(await readSeqs()).toEqual({ seqs: [9, 10, 11, 12], dropped: 2 });
    expect(await readSeqs('/_emu/journal?since=10')).toEqual({ seqs: [11, 12], dropped: 2 });
  });

  it('is shared by every device: clearing through a fleet route clears it for the port too', async () => {
    notify(2);
    await request(ctl.server).delete(`/_emu/devices/${other}/journal`).expect(204);
    notify(1);
    expect(await readSeqs()).toEqual({ seqs: [3], dropped: 0 });
  });

  it('counts drops after a reset the emulator made itself (which empties the ring)', async () => {
    notify(3);
    await request(ctl.server).delete('/_emu/journal').expect(204);
    notify(2);
    await ctl.emulator.reset();
    notify(5);
    expect(await readSeqs()).toEqual({ seqs: [7, 8, 9, 10], dropped: 1 });
  });
});

describe('POST /_emu/reset', () => {
  it('resets the emulator and answers 204 once it has', async () => {
    notify(6);
    await request(ctl.server).delete('/_emu/journal').expect(204);
    expectAnswer(await request(ctl.server).post('/_emu/reset'), 'post', '/reset');
    expect(ctl.emulator.callsOf('reset')).toEqual([[]]);
    notify(5);
    expect(await readSeqs()).toEqual({ seqs: [8, 9, 10, 11], dropped: 1 });
  });
});

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

  it('ignores a query (it takes none: ?device= picks no other device), and takes no other method than GET and PUT', async () => {
    expectAnswer(await request(ctl.server).get(`/_emu/scenario?device=${other}&since=3`), 'get', '/scenario');
    expect(ctl.emulator.callsOf('scenarioStatus')).toEqual([[{ device }]]);
    const res = await request(ctl.server).delete('/_emu/scenario');
    expectRefusal(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET, HEAD, PUT');
  });
});

const GOOD = 'name: quiet\nstates:\n  - topic: tns1:Device/tnsvendor:IO/Port\n    data: { state: "1" }\n';
const BAD = 'name: broken\ntimeline:\n  - at: soon\n    emit: { topic: "not a topic" }\n';

describe('PUT /_emu/scenario', () => {
  it.each(['text/yaml', 'application/yaml', 'text/plain'])('takes the YAML as %s and plays it', async (type) => {
    const res = await request(ctl.server).put('/_emu/scenario').type(type).send(GOOD);
    expectAnswer(res, 'put', '/scenario');
    expect(res.body).toEqual({ name: 'quiet' });
    const [[scenario, options]] = ctl.emulator.callsOf('setScenario');
    expect(scenario).toMatchObject({ name: 'quiet', states: [{ topic: 'tns1:Device/tnsvendor:IO/Port' }] });
    expect(options).toEqual({ device });
  });

  it('takes JSON { yaml, name } and answers the name it was sent as when the scenario has none', async () => {
    const res = await request(ctl.server).put('/_emu/scenario').send({ yaml: 'states: []\n', name: 'mine.yaml' });
    expectAnswer(res, 'put', '/scenario');
    expect(res.body).toEqual({ name: 'mine.yaml' });
  });

  it('refuses a scenario with errors with 400 BAD_SCENARIO listing each at its line and column', async () => {
    const res = await request(ctl.server).put('/_emu/scenario').send({ yaml: BAD, name: 'bad.yaml' });
    expectRefusal(res, 400, 'BAD_SCENARIO');
    const { errors } = (res.body as { error: { errors: { line: number; col: number; text: string }[] } }).error;
    expect(errors.length).toBeGreaterThanOrEqual(2);
    for (const error of errors) {
      expect(Object.keys(error).sort()).toEqual(['col', 'line', 'message', 'text']);
      expect(error.text).toMatch(new RegExp(`^bad\\.yaml:${error.line}:${error.col}: `));
    }
    expect(errors.map((e) => e.line)).toEqual(expect.arrayContaining([3, 4]));
    expect(ctl.emulator.callsOf('setScenario')).toEqual([]);
  });

  it('refuses JSON without yaml, naming body.yaml, and YAML over 1 MiB with 413', async () => {
    const res = await request(ctl.server).put('/_emu/scenario').send({ name: 'x' });
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain('body.yaml:');
    const big = `# ${'x'.repeat(1024 * 1024)}\n${GOOD}`;
    expectRefusal(
      await request(ctl.server).put('/_emu/scenario').type('text/yaml').send(big),
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });
});

describe('POST /_emu/scenario/{play,pause,restart}', () => {
  it.each([
    ['play', 'playScenario'],
    ['pause', 'pauseScenario'],
    ['restart', 'restartScenario'],
  ] as const)('%s calls %s on the device and answers 204', async (action, method) => {
    const res = await request(ctl.server).post(`/_emu/scenario/${action}`);
    expectAnswer(res, 'post', `/scenario/${action}`);
    expect(ctl.emulator.callsOf(method)).toEqual([[{ device }]]);
  });
});
