/** `GET /_emu/journal?via=`: the dashboard's own entries, or all but those, over a real server. */
import request from 'supertest';
import type { JournalRecord } from '../../../src/base/journal';
import { expectAnswer, expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const [device] = SERIALS;

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

/** A dashboard ws-open, a client ws-open, a fault (seq 1, 2, 3). */
function record(): void {
  const records: JournalRecord[] = [
    { kind: 'ws-open', device, session: 's1', user: 'root', remote: '127.0.0.1', via: 'dashboard' },
    { kind: 'ws-open', device, session: 's2', user: 'root', remote: '127.0.0.1' },
    { kind: 'fault', device, name: 'stall', state: 'on', params: {} },
  ];
  for (const r of records) ctl.emulator.journalRing.record(r);
}

async function read(query: string): Promise<{ seq: number; via?: string }[]> {
  const res = await request(ctl.server).get(`/_emu/journal${query}`);
  expectAnswer(res, 'get', '/journal');
  return (res.body as { entries: { seq: number; via?: string }[] }).entries;
}

describe('GET /_emu/journal?via=', () => {
  it('answers every entry without it, the dashboard ones marked', async () => {
    record();
    expect((await read('')).map((e) => [e.seq, e.via])).toEqual([
      [1, 'dashboard'],
      [2, undefined],
      [3, undefined],
    ]);
  });

  it('answers only the dashboard entries with via=dashboard, all the others with via=client', async () => {
    record();
    expect((await read('?via=dashboard')).map((e) => e.seq)).toEqual([1]);
    expect((await read('?via=client')).map((e) => e.seq)).toEqual([2, 3]);
    expect(ctl.emulator.callsOf('journal')).toEqual([[{ via: 'dashboard', device }], [{ via: 'client', device }]]);
  });

  it.each(['via=Dashboard', 'via=all', 'via='])('refuses ?%s with 400 naming query.via', async (query) => {
    const res = await request(ctl.server).get(`/_emu/journal?${query}`);
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain('query.via');
  });
});
