/**
 * The live feed route over a real server with the fake emulator (a real Journal, a
 * ManualScheduler): HEAD, refusals of a bad `since` or Last-Event-ID, the journal watch
 * held exactly while a client reads, batches read from the journal as they are sent, a
 * replay from the start when the seq resumed from was never issued, scenario changes by
 * revision only, the feed ending when a snapshot fails, and its fleet form; and a reader
 * that stops reading, on the feed itself with a response that takes nothing until told.
 */
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { createLogger } from '../../../src/base/log';
import { FeedHub } from '../../../src/control/feed-hub';
import { httpRecord } from '../../helpers/journal-records';
import { ManualScheduler } from '../../../src/scenario/scheduler';
import { openSse, type SseClient } from '../../helpers/sse-client';
import { StallingResponse } from '../../helpers/stalling-response';
import { until } from '../../helpers/until';
import { expectRefusal } from './answers';
import { type ControlServer, FakeEmulator, SERIALS, startControl } from './fake-emulator';

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

  it.each(['since=-1', 'since=', 'since=%20', 'since=%201', 'since=0x10', 'since=1e3', 'since=1.5', 'since=1&since=2'])(
    'refuses ?%s with 400 naming query.since, and opens nothing',
    async (query) => {
      const res = await request(ctl.server).get(`/_emu/feed?${query}`);
      expect(expectRefusal(res, 400, 'BAD_REQUEST')).toMatch(/^query\.since: /);
      expect(ctl.emulator.journalRing.watchers).toBe(0);
    },
  );

  it.each(['abc', 'yesterday', '0x10', '1e3', '-1', '7, 8', '1234567890123456'])(
    'refuses Last-Event-ID: %s with 400, logged, and opens nothing',
    async (header) => {
      const res = await request(ctl.server).get('/_emu/feed').set('Last-Event-ID', header);
      expect(expectRefusal(res, 400, 'BAD_REQUEST')).toMatch(/^header Last-Event-ID: /);
      expect(ctl.logs).toContainEqual(
        expect.objectContaining({ status: 400, reason: expect.stringContaining('Last-Event-ID') as unknown }),
      );
      expect(ctl.emulator.journalRing.watchers).toBe(0);
    },
  );

  it('takes an empty Last-Event-ID as none (the standard sends none then)', async () => {
    record(device, '/before');
    const feed = await open('/_emu/feed?since=0', { 'Last-Event-ID': '' });
    const batch = (await feed.nextEvent('journal')).data as Batch;
    expect(paths(batch)).toEqual(['/before']);
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

  it('reads each batch from the journal as it sends it: the newest after the last sent, the lost ones skipped', async () => {
    const feed = await open();
    await feed.nextEvent('scenario');
    // The fake's ring keeps 4: of the 10 written before the batch, 6 are gone, and counted.
    for (let i = 1; i <= 10; i++) record(device, `/${i}`);
    record(other, '/not-this-device');
    scheduler.advance(200);
    const first = await feed.nextEvent('journal');
    expect(first.data).toEqual({ entries: expect.any(Array) as unknown, skipped: 7 });
    expect(paths(first.data as Batch)).toEqual(['/8', '/9', '/10']);
    expect(first.id).toBe('10');
    record(device, '/11');
    scheduler.advance(200);
    const second = await feed.nextEvent('journal');
    expect(second.data).toEqual({ entries: [expect.objectContaining({ path: '/11' })], skipped: 0 });
    // Read once per batch, after the last seq sent (where the journal was when the feed opened, first).
    expect(ctl.emulator.callsOf('newestEntries')).toEqual([
      [300, { device, after: 0 }],
      [300, { device, after: 10 }],
    ]);
  });

  it.each([
    ['since', '/_emu/feed?since=50', {}],
    ['Last-Event-ID', '/_emu/feed', { 'Last-Event-ID': '50' }],
  ])(
    'replays from the start, marked reset, a %s above every seq issued (the emulator started again)',
    async (_what, path, headers: Record<string, string>) => {
      record(device, '/one');
      record(other, '/elsewhere');
      record(device, '/two');
      const feed = await open(path, headers);
      const batch = await feed.nextEvent('journal');
      expect(batch.data).toEqual({ entries: expect.any(Array) as unknown, skipped: 0, reset: true });
      expect(paths(batch.data as Batch)).toEqual(['/one', '/two']);
      expect(batch.id).toBe('3');
      // From then on, batches as usual.
      record(device, '/three');
      scheduler.advance(200);
      expect((await feed.nextEvent('journal')).data).toEqual({
        entries: [expect.objectContaining({ path: '/three' })],
        skipped: 0,
      });
    },
  );

  it('says reset with no entries when the journal holds none of the device, its id the newest seq', async () => {
    record(other, '/elsewhere');
    const feed = await open('/_emu/feed?since=9');
    expect(await feed.nextEvent('journal')).toEqual({ id: '1', data: { entries: [], skipped: 0, reset: true } });
  });

  it('replays nothing for a since it issued with nothing after it, then sends live batches, not marked reset', async () => {
    record(device, '/one');
    const feed = await open('/_emu/feed?since=1');
    await feed.nextEvent('scenario');
    record(device, '/two');
    scheduler.advance(200);
    const frame = await feed.next();
    expect(frame).toMatchObject({ kind: 'event', event: 'journal', id: '2' });
    expect(frame.kind === 'event' && frame.data).toEqual({
      entries: [expect.objectContaining({ path: '/two' })],
      skipped: 0,
    });
  });

  it('sends the scenario again on a new revision only, not as its position moves (however unevenly)', async () => {
    const feed = await open();
    expect((await feed.nextEvent('scenario')).data).toMatchObject({ positionMs: 1500, revision: 0 });
    // Read a millisecond early or late, as a timer runs: the position alone is never news.
    for (const [t, position] of [
      [1000, 2501],
      [2000, 3499],
      [3000, 4500],
      [4000, 5501],
    ]) {
      ctl.emulator.scenario.positionMs = position;
      scheduler.advance(t - scheduler.now());
    }
    ctl.emulator.scenario.revision = 1;
    ctl.emulator.scenario.positionMs = 6500;
    scheduler.advance(1000);
    expect(await feed.next()).toEqual({
      kind: 'event',
      event: 'scenario',
      id: undefined,
      data: expect.objectContaining({ positionMs: 6500, revision: 1 }) as unknown,
    });
  });

  it('sends the snapshots as their GET routes answer them', async () => {
    const feed = await open();
    expect((await feed.nextEvent('sessions')).data).toEqual((await request(ctl.server).get('/_emu/sessions')).body);
    expect((await feed.nextEvent('faults')).data).toEqual((await request(ctl.server).get('/_emu/faults')).body);
    expect((await feed.nextEvent('scenario')).data).toEqual((await request(ctl.server).get('/_emu/scenario')).body);
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
    const batch = (await feed.nextEvent('journal')).data as Batch;
    expect(batch).toEqual({ entries: [expect.objectContaining({ device: other, path: '/this-one' })], skipped: 0 });
  });
});

describe('EventFeed, its reader stopping', () => {
  it('sends a reader that stopped reading nothing more, then one batch of the newest 300 with the rest skipped', async () => {
    const emulator = new FakeEmulator(2000);
    const res = new StallingResponse();
    const log = createLogger({ level: 'silent' });
    const hub = new FeedHub({ emulator, device, scheduler, log }, () => undefined);
    const feed = hub.join(res as unknown as ServerResponse, { since: undefined, remote: undefined });
    expect(res.frames.map((frame) => frame.kind === 'event' && frame.event)).toEqual([
      'sessions',
      'faults',
      'overrides',
      'scenario',
    ]);
    let n = 0;
    const storm = (count: number, tag: string): void => {
      for (let i = 0; i < count; i++) emulator.journalRing.record(httpRecord(device, `/${tag}/${n++}`));
    };
    // The reader stops as a batch goes out: the batch is taken, and is more than the
    // response holds without waiting, so the feed's writes wait from here.
    res.stall();
    storm(300, 'fill');
    scheduler.advance(200);
    expect(res.writableNeedDrain).toBe(true);
    const taken = res.frames.length;
    const waiting = res.writableLength;
    // A storm and a scenario change while it lags: two batch periods and a snapshot tick
    // pass, and nothing is written (a write would wait in the response, on top of the batch).
    storm(500, 'a');
    scheduler.advance(200);
    storm(500, 'b');
    scheduler.advance(200);
    emulator.scenario.revision = 1;
    scheduler.advance(1000);
    expect(res.writableLength).toBe(waiting);
    // The reader takes what waited: one batch of the storm, the newest 300, the rest skipped.
    res.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(res.frames.slice(taken)).toEqual([
      { kind: 'event', event: 'journal', id: String(n), data: { entries: expect.any(Array) as unknown, skipped: 700 } },
    ]);
    const batch = (res.frames[taken] as { data: Batch }).data;
    expect(paths(batch)).toEqual(Array.from({ length: 300 }, (_, i) => `/b/${n - 300 + i}`));
    // The scenario change held back goes at the next tick.
    scheduler.advance(1000);
    expect(res.frames.slice(taken + 1)).toEqual([
      expect.objectContaining({
        kind: 'event',
        event: 'scenario',
        data: expect.objectContaining({ revision: 1 }) as unknown,
      }),
    ]);
    feed.end('client');
    expect(emulator.journalRing.watchers).toBe(0);
    expect(scheduler.pending).toBe(0);
  });
});

/** A `journal` event's data. */
interface Batch {
  entries: { path: string }[];
  skipped: number;
  reset?: true;
}

/** The paths of a batch's entries. */
function paths(batch: Batch): string[] {
  return batch.entries.map((entry) => entry.path);
}
