/**
 * The live feed route over a real server with the fake emulator (a real Journal, a
 * ManualScheduler): HEAD, refusals of a bad `since` or Last-Event-ID, the journal watch
 * held exactly while a client reads, the feed ending when the emulator closes or a
 * snapshot fails, and its fleet form.
 */
import request from 'supertest';
import { httpRecord } from '../../helpers/journal-records';
import { ManualScheduler } from '../../../src/scenario/scheduler';
import { openSse, type SseClient } from '../../helpers/sse-client';
import { until } from '../../helpers/until';
import { expectRefusal } from './answers';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

const [device, other] = SERIALS;

let ctl: ControlServer;
let scheduler: ManualScheduler;
const feeds: SseClient[] = [];
beforeEach(async () => {
  scheduler = new ManualScheduler(0);
  ctl = await startControl({ scheduler });
});
afterEach(async () => {
  feeds.splice(0).forEach((feed) => feed.close());
  await ctl.close();
});

async function open(path = '/_emu/feed', headers: Record<string, string> = {}): Promise<SseClient> {
  const feed = await openSse(`${ctl.url}${path}`, headers);
  feeds.push(feed);
  return feed;
}

/** Records a request of `serial` in the fake's journal. */
function record(serial: string, path: string): void {
  ctl.emulator.journalRing.record(httpRecord(serial, path));
}

describe('GET /_emu/feed', () => {
  it('answers HEAD with the stream headers only', async () => {
    const res = await request(ctl.server).head('/_emu/feed').expect(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(ctl.emulator.journalRing.watchers).toBe(0);
    expect(scheduler.pending).toBe(0);
  });

  it('refuses a bad since or Last-Event-ID with 400, logged, and opens nothing', async () => {
    expect(expectRefusal(await request(ctl.server).get('/_emu/feed?since=-1'), 400, 'BAD_REQUEST')).toMatch(
      /^query\.since: /,
    );
    const res = await request(ctl.server).get('/_emu/feed').set('Last-Event-ID', 'yesterday');
    expect(expectRefusal(res, 400, 'BAD_REQUEST')).toContain('Last-Event-ID');
    expect(ctl.logs).toContainEqual(
      expect.objectContaining({ status: 400, reason: expect.stringContaining('Last-Event-ID') as unknown }),
    );
    expect(ctl.emulator.journalRing.watchers).toBe(0);
  });

  it('answers 503 NOT_READY while the emulator starts', async () => {
    ctl.setState('starting');
    expectRefusal(await request(ctl.server).get('/_emu/feed'), 503, 'NOT_READY');
  });

  it('holds one journal watch and one timer while a client reads, none once it goes', async () => {
    const feed = await open();
    await feed.nextEvent('scenario');
    expect(ctl.emulator.journalRing.watchers).toBe(1);
    expect(ctl.emulator.callsOf('watchJournal')).toEqual([[{ device }]]);
    expect(scheduler.pending).toBe(1);
    record(device, '/a');
    expect(scheduler.pending).toBe(2);
    feed.close();
    await until(() => ctl.emulator.journalRing.watchers === 0, 'the watch removed');
    expect(scheduler.pending).toBe(0);
  });

  it('sends the snapshots as their GET routes answer them', async () => {
    const feed = await open();
    expect((await feed.nextEvent('sessions')).data).toEqual((await request(ctl.server).get('/_emu/sessions')).body);
    expect((await feed.nextEvent('faults')).data).toEqual((await request(ctl.server).get('/_emu/faults')).body);
    expect((await feed.nextEvent('scenario')).data).toEqual((await request(ctl.server).get('/_emu/scenario')).body);
  });

  it('ends the stream at the next tick once the emulator is closing', async () => {
    const feed = await open();
    await feed.nextEvent('scenario');
    ctl.setState('closing');
    scheduler.advance(1000);
    await feed.ended;
    expect(ctl.emulator.journalRing.watchers).toBe(0);
    expect(scheduler.pending).toBe(0);
  });

  it('logs a snapshot that fails and ends that feed only', async () => {
    const feed = await open();
    await feed.nextEvent('scenario');
    ctl.emulator.throwOn.set('sessions', new Error('broken'));
    scheduler.advance(1000);
    await feed.ended;
    expect(ctl.logs).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'control API: feed failed; closing it' }),
    );
    expect(ctl.emulator.journalRing.watchers).toBe(0);
    await request(ctl.server).get('/_emu/health').expect(200);
  });

  it('on the fleet route, watches and sends only the device named', async () => {
    const feed = await open(`/_emu/devices/${other}/feed`);
    await feed.nextEvent('scenario');
    expect(ctl.emulator.callsOf('watchJournal')).toEqual([[{ device: other }]]);
    record(device, '/not-this-one');
    record(other, '/this-one');
    scheduler.advance(200);
    const batch = (await feed.nextEvent('journal')).data as { entries: { path: string }[]; skipped: number };
    expect(batch).toEqual({ entries: [expect.objectContaining({ device: other, path: '/this-one' })], skipped: 0 });
  });
});
