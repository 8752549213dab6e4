/**
 * Many live feeds at once, over a real server with the fake emulator (a real Journal, a
 * ManualScheduler): each batch and each snapshot read and serialised once for every feed of
 * a device, a feed opened between two batches reading its own first one; the cap on open
 * feeds (503 TOO_MANY_FEEDS with Retry-After, its log lines counted past a few); and a
 * reader that takes nothing, on a held response stream, closed once it has lagged for
 * stallMs and not before.
 */
import type { ServerResponse } from 'node:http';
import request from 'supertest';
import { EmulatorError } from '../../../src/base/errors';
import { createLogger } from '../../../src/base/log';
import { FEED_TIMING } from '../../../src/control/event-feed';
import { FeedHub } from '../../../src/control/feed-hub';
import { DEFAULT_MAX_FEEDS, FeedHubs } from '../../../src/control/feed-hubs';
import { ManualScheduler } from '../../../src/scenario/scheduler';
import { httpRecord } from '../../helpers/journal-records';
import { openSse, type SseClient } from '../../helpers/sse-client';
import { StallingResponse } from '../../helpers/stalling-response';
import { until } from '../../helpers/until';
import { expectRefusal } from './answers';
import { type ControlServer, FakeEmulator, SERIALS, startControl } from './fake-emulator';

const [device, other] = SERIALS;

let ctl: ControlServer;
let scheduler: ManualScheduler;
const feeds: SseClient[] = [];
afterEach(() => jest.restoreAllMocks());

/** Starts the control API with a cap of `maxFeeds` (the default when undefined). */
async function start(maxFeeds?: number): Promise<void> {
  scheduler = new ManualScheduler(0);
  ctl = await startControl({ scheduler, feeds: new FeedHubs(maxFeeds) });
}

/** Opens a feed and takes its three opening snapshots. */
async function open(path = '/_emu/feed'): Promise<SseClient> {
  const feed = await openSse(`${ctl.url}${path}`);
  feeds.push(feed);
  expect(feed.status).toBe(200);
  await feed.nextEvent('scenario');
  return feed;
}

/** Records a request of `serial` in the fake's journal. */
function record(serial: string, path: string): void {
  ctl.emulator.journalRing.record(httpRecord(serial, path));
}

/** How many times JSON.stringify was given a journal batch. */
function batchSerialisations(spy: jest.SpyInstance): number {
  return spy.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'skipped' in value).length;
}

/** Closes the feeds and the server of a test that started one. */
function closedAfterEach(): void {
  afterEach(async () => {
    feeds.splice(0).forEach((feed) => feed.close());
    await ctl.close();
  });
}

describe('feeds of one device', () => {
  closedAfterEach();
  it('read and serialise each batch once for all of them, and send it to each', async () => {
    await start();
    record(device, '/before');
    const live = [await open(), await open()];
    const replayed = await open('/_emu/feed?since=0');
    expect((await replayed.nextEvent('journal')).data).toMatchObject({ entries: [{ path: '/before' }] });
    const reads = ctl.emulator.callsOf('newestEntries').length;
    const stringify = jest.spyOn(JSON, 'stringify');
    record(device, '/a');
    record(device, '/b');
    scheduler.advance(FEED_TIMING.batchMs);
    for (const feed of [...live, replayed])
      expect(await feed.nextEvent('journal')).toEqual({
        id: '3',
        data: {
          entries: [expect.objectContaining({ path: '/a' }), expect.objectContaining({ path: '/b' })],
          skipped: 0,
        },
      });
    expect(ctl.emulator.callsOf('newestEntries').length - reads).toBe(1);
    expect(batchSerialisations(stringify)).toBe(1);
  });

  it('let a feed opened between two batches read its first batch itself, then take the shared ones', async () => {
    await start();
    const first = await open();
    record(device, '/before-the-second');
    const second = await open();
    record(device, '/after');
    scheduler.advance(FEED_TIMING.batchMs);
    const paths = async (feed: SseClient): Promise<string[]> =>
      ((await feed.nextEvent('journal')).data as { entries: { path: string }[] }).entries.map((e) => e.path);
    expect(await paths(first)).toEqual(['/before-the-second', '/after']);
    expect(await paths(second)).toEqual(['/after']);
    // From then on they are where the hub is: one read a batch.
    const stringify = jest.spyOn(JSON, 'stringify');
    const reads = ctl.emulator.callsOf('newestEntries').length;
    record(device, '/shared');
    scheduler.advance(FEED_TIMING.batchMs);
    expect(await paths(first)).toEqual(['/shared']);
    expect(await paths(second)).toEqual(['/shared']);
    expect(ctl.emulator.callsOf('newestEntries').length - reads).toBe(1);
    expect(batchSerialisations(stringify)).toBe(1);
  });

  it('read the snapshots once a tick for all of them, and send a change to each once', async () => {
    await start();
    const all = [await open(), await open(), await open()];
    const before = ctl.emulator.callsOf('scenarioStatus').length;
    ctl.emulator.scenario.revision = 1;
    scheduler.advance(FEED_TIMING.snapshotMs);
    for (const feed of all)
      expect(await feed.nextEvent('scenario')).toEqual({
        id: undefined,
        data: expect.objectContaining({ revision: 1 }) as unknown,
      });
    scheduler.advance(FEED_TIMING.snapshotMs);
    expect(ctl.emulator.callsOf('scenarioStatus').length - before).toBe(2);
    expect(ctl.emulator.callsOf('sessions').length).toBe(3 + 2);
    // Nothing more came: the next frame of each is the keepalive, 15 s after the change was sent.
    scheduler.advance(FEED_TIMING.snapshotMs + FEED_TIMING.keepaliveMs - scheduler.now());
    for (const feed of all) expect(await feed.next()).toEqual({ kind: 'comment', text: 'keepalive' });
  });

  it('hold one watch of each device with a feed, and none once the feeds go', async () => {
    await start();
    const own = [await open(), await open()];
    const fleet = await open(`/_emu/devices/${other}/feed`);
    expect(ctl.emulator.callsOf('watchJournal')).toEqual([[{ device }], [{ device: other }]]);
    expect(ctl.emulator.journalRing.watchers).toBe(2);
    for (const feed of [...own, fleet]) feed.close();
    await until(() => ctl.emulator.journalRing.watchers === 0, 'the watches removed');
    expect(scheduler.pending).toBe(0);
  });
});

describe('the cap option', () => {
  it('is 100 by default, and refuses 0, a fraction or more than 100,000 with BAD_OPTION', () => {
    expect(new FeedHubs().maxFeeds).toBe(DEFAULT_MAX_FEEDS);
    expect(DEFAULT_MAX_FEEDS).toBe(100);
    for (const bad of [0, 1.5, 100_001]) {
      expect(() => new FeedHubs(bad)).toThrow(EmulatorError);
      expect(() => new FeedHubs(bad)).toThrow(`control.maxFeeds must be a whole number from 1 to 100000, not ${bad}`);
    }
  });
});

describe('the cap on open feeds', () => {
  closedAfterEach();
  it('answers 503 TOO_MANY_FEEDS with Retry-After past it, over every device, logged; a place freed is taken again', async () => {
    await start(2);
    const first = await open();
    await open(`/_emu/devices/${other}/feed`);
    const refused = await request(ctl.server).get('/_emu/feed');
    expect(expectRefusal(refused, 503, 'TOO_MANY_FEEDS')).toMatch(/^2 live feeds are open/);
    expect(refused.headers['retry-after']).toBe(String(FEED_TIMING.stallMs / 1000));
    expect(ctl.logs).toContainEqual(
      expect.objectContaining({ msg: 'control API: refused', status: 503, code: 'TOO_MANY_FEEDS' }),
    );
    expectRefusal(await request(ctl.server).get(`/_emu/devices/${other}/feed`), 503, 'TOO_MANY_FEEDS');
    // No watch or timer was made for the refused ones.
    expect(ctl.emulator.callsOf('watchJournal')).toHaveLength(2);
    // HEAD opens no feed, and is answered.
    await request(ctl.server).head('/_emu/feed').expect(200);
    first.close();
    await until(() => ctl.emulator.journalRing.watchers === 1, 'the first feed gone');
    // The place is free as the feed ends.
    await open();
  });

  it('logs the first 10 refusals of 10 s one by one and counts the rest in one line', async () => {
    await start(1);
    await open();
    for (let i = 0; i < 13; i++) await request(ctl.server).get('/_emu/feed').expect(503);
    const refusals = () => ctl.logs.filter((line) => line.code === 'TOO_MANY_FEEDS');
    expect(refusals()).toHaveLength(10);
    scheduler.advance(10_000);
    await request(ctl.server).get('/_emu/feed').expect(503);
    expect(refusals()).toHaveLength(11);
    expect(ctl.logs).toContainEqual(
      expect.objectContaining({ msg: 'control API: feeds refused past the cap, not logged one by one', count: 3 }),
    );
  });
});

describe('a reader that takes nothing', () => {
  const logs: { level: number; msg: string; [field: string]: unknown }[] = [];
  const log = createLogger({
    level: 'debug',
    write: (line) => void logs.push(JSON.parse(line) as (typeof logs)[number]),
  });
  let emulator: FakeEmulator;
  let held: StallingResponse;
  beforeEach(() => {
    logs.length = 0;
    scheduler = new ManualScheduler(0);
    emulator = new FakeEmulator(2000);
    held = new StallingResponse();
  });

  /** A feed on the held response, its reader stopped with a batch over the high-water mark taken. */
  function lagging(): FeedHub {
    const hub = new FeedHub({ emulator, device, scheduler, log }, () => undefined);
    hub.join(held as unknown as ServerResponse, { since: undefined, remote: '127.0.0.9' });
    held.stall();
    for (let i = 0; i < 300; i++) emulator.journalRing.record(httpRecord(device, `/fill/${i}`));
    scheduler.advance(FEED_TIMING.batchMs);
    expect(held.writableNeedDrain).toBe(true);
    return hub;
  }

  it('is closed once it has lagged for stallMs (at the next tick), with a log line; the watch and timers go', () => {
    const hub = lagging();
    const lagSince = scheduler.now();
    // Ticks every second: the first at or past stallMs after the lag began closes it.
    const closesAt = Math.ceil((lagSince + FEED_TIMING.stallMs) / FEED_TIMING.snapshotMs) * FEED_TIMING.snapshotMs;
    scheduler.advance(closesAt - 1 - scheduler.now());
    expect(hub.size).toBe(1);
    expect(held.destroyed).toBe(false);
    scheduler.advance(1);
    expect(hub.size).toBe(0);
    expect(held.destroyed).toBe(true);
    expect(logs).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: 'control API: feed reader took nothing; closing it',
        device,
        remote: '127.0.0.9',
        stalledMs: closesAt - lagSince,
      }),
    );
    expect(logs).toContainEqual(expect.objectContaining({ msg: 'control API: feed closed', reason: 'stalled' }));
    expect(emulator.journalRing.watchers).toBe(0);
    expect(scheduler.pending).toBe(0);
  });

  it('that reads again before stallMs has its count start over', async () => {
    const hub = lagging();
    scheduler.advance(FEED_TIMING.stallMs - 1000);
    held.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.writableNeedDrain).toBe(false);
    // It stops again as the next batch goes out: a new lag, counted from there.
    held.stall();
    for (let i = 0; i < 300; i++) emulator.journalRing.record(httpRecord(device, `/more/${i}`));
    scheduler.advance(FEED_TIMING.batchMs);
    expect(held.writableNeedDrain).toBe(true);
    scheduler.advance(FEED_TIMING.stallMs - 1000);
    expect(hub.size).toBe(1);
    scheduler.advance(2000);
    expect(hub.size).toBe(0);
  });
});
