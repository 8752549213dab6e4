/**
 * The live feed (`GET /_emu/feed`) on a real emulator, read as Server-Sent Events over a
 * real socket: journal entries arrive in batches after a publish or a request to the
 * device, a storm is capped with `skipped`, snapshots come at the start and on change
 * only, a keepalive fills silence, and a client that goes (or an emulator that closes)
 * leaves no timer behind. Feed time is a ManualScheduler: no sleeps.
 */
import { startEmulator } from '../../src';
import { type FeedEventName, type FeedEvents, FeedEventsSchema } from '../../src/control/feed-events';
import { openWithToken, type StreamClient } from '../helpers/event-stream-client';
import { scenarioOf } from '../helpers/scenario-of';
import { openSse, type SseClient } from '../helpers/sse-client';
import { until } from '../helpers/until';
import { closeRigs, type ControlRig, QUIET, startRig } from './control-rig';

const feeds: SseClient[] = [];
const clients: StreamClient[] = [];
afterEach(async () => {
  // Every event any feed sent is what its schema says (src/control/feed-events), no field more.
  for (const feed of feeds)
    for (const frame of feed.frames) {
      if (frame.kind !== 'event') continue;
      const schema = FeedEventsSchema.shape[frame.event as FeedEventName];
      expect({ event: frame.event, data: schema.parse(frame.data) }).toEqual({ event: frame.event, data: frame.data });
    }
  feeds.splice(0).forEach((feed) => feed.close());
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await closeRigs();
});

type Batch = FeedEvents['journal'];

/** Opens a feed and takes its four opening snapshots, checking their order. */
async function openFeed(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const feed = await openSse(url, headers);
  feeds.push(feed);
  expect(feed.status).toBe(200);
  expect(feed.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(feed.headers['cache-control']).toBe('no-store');
  const names = [];
  for (let i = 0; i < 4; i++) {
    const frame = await feed.next();
    names.push(frame.kind === 'event' ? frame.event : frame.text);
  }
  expect(names).toEqual(['sessions', 'faults', 'overrides', 'scenario']);
  return feed;
}

/** A stream client of the first device, subscribed to everything. */
async function subscribed(rig: ControlRig): Promise<StreamClient> {
  const client = await openWithToken(rig.emulator.devices[0].device);
  clients.push(client);
  await client.configure([{ topicFilter: '' }]);
  return client;
}

/** The seq of the newest journal entry (0 when empty). */
function lastSeq(rig: ControlRig): number {
  return rig.emulator.journal().at(-1)?.seq ?? 0;
}

describe('GET /_emu/feed: journal entries', () => {
  it('pushes a batch within 200 ms of scenario time after a publish and a request to the device', async () => {
    const rig = await startRig();
    await subscribed(rig);
    const feed = await openFeed(`${rig.control}/feed`);
    const since = lastSeq(rig);
    const published = await fetch(`${rig.control}/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ topic: 'tns1:VideoSource/MotionAlarm', data: { State: '1' } }),
    });
    expect(published.status).toBe(200);
    const device = rig.emulator.devices[0].device;
    expect((await fetch(device.urls.featureFlags, { method: 'POST' })).status).toBe(401);
    await until(() => rig.emulator.journal({ since, kind: 'http' }).length === 1, 'the request in the journal');
    rig.scheduler.advance(200);
    const batch = await feed.nextEvent('journal');
    const { entries, skipped } = batch.data as Batch;
    expect(skipped).toBe(0);
    expect(entries).toEqual(rig.emulator.journal({ since }));
    expect(entries.map((e) => e.kind)).toEqual(['notification', 'auth-refused', 'http']);
    expect(entries[0]).toMatchObject({ kind: 'notification', topic: 'tns1:VideoSource/MotionAlarm' });
    expect(batch.id).toBe(String(entries[2].seq));
  });

  it('collects what comes within 200 ms into one batch', async () => {
    const rig = await startRig();
    const feed = await openFeed(`${rig.control}/feed`);
    const since = lastSeq(rig);
    await fetch(`${rig.emulator.devices[0].device.url}/nothing-here`);
    await until(() => rig.emulator.journal({ since }).length === 1, 'the request in the journal');
    rig.scheduler.advance(199);
    // Nothing else is due: the next frame can only be the batch, sent at 200 ms, not before.
    await fetch(`${rig.emulator.devices[0].device.url}/nothing-either`);
    await until(() => rig.emulator.journal({ since }).length === 2, 'the second request in the journal');
    rig.scheduler.advance(1);
    const frame = await feed.next();
    expect(frame).toMatchObject({ kind: 'event', event: 'journal' });
    const paths = (frame.kind === 'event' ? (frame.data as Batch).entries : []).map(
      (e) => (e as { path: string }).path,
    );
    expect(paths).toEqual(['/nothing-here', '/nothing-either']);
  });

  it('caps a storm at the newest 300 entries and counts the rest as skipped', async () => {
    const rig = await startRig();
    const client = await subscribed(rig);
    const feed = await openFeed(`${rig.control}/feed`);
    const since = lastSeq(rig);
    const storm = await fetch(`${rig.control}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'storm', ratePerSecond: 50_000, forMs: 20 }),
    });
    expect(storm.status).toBe(200);
    const notifications = () => rig.emulator.journal({ since, kind: 'notification' }).length;
    await until(() => notifications() === 1000, 'the storm of 1000 events sent');
    const journal = rig.emulator.journal({ since });
    expect(client.frames.length).toBeGreaterThan(0);
    rig.scheduler.advance(200);
    const batch = await feed.nextEvent('journal');
    const { entries, skipped } = batch.data as Batch;
    expect(entries).toHaveLength(300);
    expect(skipped).toBe(journal.length - 300);
    expect(entries).toEqual(journal.slice(-300));
    expect(batch.id).toBe(String(journal.at(-1)?.seq));
  });

  it('replays what the journal holds after ?since=, and after Last-Event-ID, which wins', async () => {
    const rig = await startRig();
    const device = rig.emulator.devices[0].device;
    for (const path of ['/one', '/two', '/three']) await fetch(`${device.url}${path}`);
    await until(() => rig.emulator.journal({ kind: 'http' }).length === 3, 'three requests in the journal');
    const [first, second] = rig.emulator.journal({ kind: 'http' });
    const bySince = await openFeed(`${rig.control}/feed?since=${first.seq}`);
    const replayed = (await bySince.nextEvent('journal')).data as Batch;
    expect(replayed.entries.map((e) => (e as { path: string }).path)).toEqual(['/two', '/three']);
    const byHeader = await openFeed(`${rig.control}/feed?since=${first.seq}`, { 'Last-Event-ID': String(second.seq) });
    const resumed = await byHeader.nextEvent('journal');
    expect((resumed.data as Batch).entries.map((e) => (e as { path: string }).path)).toEqual(['/three']);
    expect(resumed.id).toBe(String(lastSeq(rig)));
  });

  it('replays from the start, marked reset, a Last-Event-ID above every seq issued (the emulator started again)', async () => {
    const rig = await startRig();
    const device = rig.emulator.devices[0].device;
    for (const path of ['/one', '/two']) await fetch(`${device.url}${path}`);
    await until(() => rig.emulator.journal({ kind: 'http' }).length === 2, 'two requests in the journal');
    const held = rig.emulator.journal({ device: device.serial });
    const feed = await openFeed(`${rig.control}/feed`, { 'Last-Event-ID': String(rig.emulator.journalSeq + 1000) });
    const batch = await feed.nextEvent('journal');
    expect(batch.data).toEqual({ entries: held, skipped: 0, reset: true });
    expect(batch.id).toBe(String(held.at(-1)?.seq));
  });
});

describe('GET /_emu/feed: snapshots', () => {
  it('sends sessions, faults, overrides and scenario at the start and then each only when it changed', async () => {
    const rig = await startRig();
    const feed = await openFeed(`${rig.control}/feed`);
    expect(feed.frames.map((f) => (f.kind === 'event' ? f.data : undefined))).toEqual([
      { sessions: [] },
      { faults: [] },
      { overrides: [] },
      { name: 'quiet', state: 'playing', positionMs: 0, speed: 1, revision: 0, topics: expect.any(Array) as unknown },
    ]);
    // A session connects: after the next tick, `sessions` shows it (its journal entries come first).
    await subscribed(rig);
    rig.scheduler.advance(1000);
    const serial = rig.emulator.devices[0].device.serial;
    const sessions = (await feed.nextEvent('sessions')).data;
    expect(sessions).toEqual({ sessions: [expect.objectContaining({ state: 'CONFIGURED', device: serial })] });
    // Nothing changes for a second; then a fault is switched on: the next snapshot is `faults`, not a repeat.
    rig.scheduler.advance(1000);
    await fetch(`${rig.control}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'clock', skewMs: 60_000 }),
    });
    rig.scheduler.advance(1000);
    expect(await nextSnapshot(feed)).toMatchObject({
      event: 'faults',
      data: { faults: [{ name: 'clock', device: serial }] },
    });
    // An answer override made: `overrides` lists it.
    await fetch(`${rig.control}/overrides`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ cgi: 'featureflag.cgi', answer: { status: 500 } }),
    });
    rig.scheduler.advance(1000);
    expect(await nextSnapshot(feed)).toMatchObject({
      event: 'overrides',
      data: { overrides: [{ cgi: 'featureflag.cgi', id: 'o1', device: serial }] },
    });
    // Paused: `scenario` says so, its position held where it paused.
    await fetch(`${rig.control}/scenario/pause`, { method: 'POST' });
    rig.scheduler.advance(1000);
    expect(await nextSnapshot(feed)).toEqual({
      event: 'scenario',
      data: expect.objectContaining({ state: 'paused', positionMs: 4000 }) as unknown,
    });
    // Played again, then restarted: each is a change (the position moving as it plays is not).
    await fetch(`${rig.control}/scenario/play`, { method: 'POST' });
    rig.scheduler.advance(1000);
    expect(await nextSnapshot(feed)).toMatchObject({ event: 'scenario', data: { state: 'playing', positionMs: 5000 } });
    rig.scheduler.advance(3000);
    await fetch(`${rig.control}/scenario/restart`, { method: 'POST' });
    rig.scheduler.advance(1000);
    expect(await nextSnapshot(feed)).toMatchObject({ event: 'scenario', data: { state: 'playing', positionMs: 1000 } });
  });

  it('sends the scenario once when it finishes, then not again', async () => {
    const rig = await startRig(
      scenarioOf('name: short', 'timeline:', '  - { at: 2s, emit: { topic: tns1:Test/Done } }'),
    );
    const feed = await openFeed(`${rig.control}/feed`);
    rig.scheduler.advance(2000);
    expect(await nextSnapshot(feed)).toEqual({
      event: 'scenario',
      data: expect.objectContaining({ state: 'finished', positionMs: 2000, revision: 1 }) as unknown,
    });
    // Ticks go by: nothing changes, so the next frame is the keepalive, 15 s after the last event.
    rig.scheduler.advance(16_999);
    rig.scheduler.advance(1);
    expect(await feed.next()).toEqual({ kind: 'comment', text: 'keepalive' });
  });

  it('writes a keepalive comment after 15 s without an event', async () => {
    const rig = await startRig();
    const feed = await openFeed(`${rig.control}/feed`);
    rig.scheduler.advance(14_999);
    rig.scheduler.advance(1);
    expect(await feed.next()).toEqual({ kind: 'comment', text: 'keepalive' });
  });
});

describe('GET /_emu/feed: its end', () => {
  it('removes its timers when the client goes', async () => {
    const rig = await startRig();
    const before = rig.scheduler.pending;
    const feed = await openFeed(`${rig.control}/feed`);
    await fetch(`${rig.emulator.devices[0].device.url}/something`);
    await until(() => rig.scheduler.pending === before + 2, 'the snapshot tick and a batch timer');
    feed.close();
    await until(() => rig.scheduler.pending === before, 'the feed timers gone');
    // What the journal gets now goes nowhere and sets no timer.
    await fetch(`${rig.emulator.devices[0].device.url}/something-else`);
    expect(rig.scheduler.pending).toBe(before);
  });

  it('does not hold up close(): the stream ends and no timer is left', async () => {
    const rig = await startRig();
    const feed = await openFeed(`${rig.control}/feed`);
    await rig.emulator.close();
    await feed.ended;
    expect(rig.scheduler.pending).toBe(0);
  });
});

describe('GET /_emu/feed on the wall clock (no scheduler given)', () => {
  it('sends a batch by itself, and close() ends the stream', async () => {
    const emulator = await startEmulator({ scenarios: [{ scenario: QUIET }], device: { port: 0 } });
    try {
      const feed = await openFeed(`${emulator.devices[0].device.url}/_emu/feed`);
      await fetch(`${emulator.devices[0].device.url}/on-the-wall-clock`);
      const batch = (await feed.nextEvent('journal')).data as Batch;
      expect(batch.entries).toEqual([expect.objectContaining({ path: '/on-the-wall-clock' })]);
      await emulator.close();
      await feed.ended;
    } finally {
      await emulator.close();
    }
  });
});

describe('GET /_emu/feed in a fleet', () => {
  it("carries only its own device's entries, on its own port and on the fleet route", async () => {
    const rig = await startRig(QUIET, { devices: 2 });
    const [first, second] = rig.emulator.devices.map((d) => d.device);
    const own = await openFeed(`${rig.control}/feed`);
    const other = await openFeed(`${second.url}/_emu/feed`);
    const fleet = await openFeed(`${rig.control}/devices/${second.serial}/feed`);
    const since = lastSeq(rig);
    await fetch(`${second.url}/to-the-second`);
    await fetch(`${first.url}/to-the-first`);
    await until(() => rig.emulator.journal({ since }).length === 2, 'both requests in the journal');
    rig.scheduler.advance(200);
    const pathsOf = async (feed: SseClient) =>
      ((await feed.nextEvent('journal')).data as Batch).entries.map(
        (e) => `${e.device} ${(e as { path: string }).path}`,
      );
    expect(await pathsOf(own)).toEqual([`${first.serial} /to-the-first`]);
    expect(await pathsOf(other)).toEqual([`${second.serial} /to-the-second`]);
    expect(await pathsOf(fleet)).toEqual([`${second.serial} /to-the-second`]);
  });
});

describe('GET /_emu/feed: the cap', () => {
  it("is the emulator's, over every port and device: past control.maxFeeds, 503 TOO_MANY_FEEDS with Retry-After", async () => {
    const rig = await startRig(QUIET, { devices: 2, control: { maxFeeds: 2 } });
    const second = rig.emulator.devices[1].device;
    const own = await openFeed(`${rig.control}/feed`);
    await openFeed(`${second.url}/_emu/feed`);
    for (const url of [
      `${rig.control}/feed`,
      `${second.url}/_emu/feed`,
      `${rig.control}/devices/${second.serial}/feed`,
    ]) {
      const refused = await fetch(url);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('10');
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_FEEDS');
    }
    expect(rig.logs.filter((line) => line.code === 'TOO_MANY_FEEDS')).toHaveLength(3);
    own.close();
    await until(() => rig.logs.some((line) => line.msg === 'control API: feed closed'), 'the first feed closed');
    await openFeed(`${rig.control}/devices/${second.serial}/feed`);
  });

  it('refuses a control.maxFeeds out of range at start', async () => {
    await expect(startRig(QUIET, { control: { maxFeeds: 0 } })).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringContaining('control.maxFeeds') as unknown,
    });
  });
});

/** The next snapshot event (journal batches and comments skipped). */
async function nextSnapshot(feed: SseClient): Promise<{ event: string; data: unknown }> {
  for (;;) {
    const frame = await feed.next();
    if (frame.kind === 'event' && frame.event !== 'journal') return { event: frame.event, data: frame.data };
  }
}
