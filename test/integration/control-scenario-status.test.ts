/**
 * `GET /_emu/scenario` on a real emulator whose scenario time is a ManualScheduler: the
 * position is exact as it plays, holds while paused, goes back to 0 on a restart and holds
 * at the end once finished; speed, topics, and the fleet route of another device.
 */
import { scenarioOf } from '../helpers/scenario-of';
import { closeRigs, type ControlRig, QUIET, startRig } from './control-rig';

afterEach(closeRigs);

interface Status {
  name: string | null;
  state: string;
  positionMs: number;
  speed: number;
  topics: string[];
}

/** `GET .../scenario` (of `path`, default the first device's own), checked to be a 200. */
async function status(rig: ControlRig, path = '/scenario'): Promise<Status> {
  const res = await fetch(`${rig.control}${path}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Status;
}

async function post(rig: ControlRig, path: string): Promise<void> {
  expect((await fetch(`${rig.control}${path}`, { method: 'POST' })).status).toBe(204);
}

describe('GET /_emu/scenario', () => {
  it('answers the name, state and exact position as it plays, pauses, plays on and restarts', async () => {
    const rig = await startRig();
    expect(await status(rig)).toEqual({
      name: 'quiet',
      state: 'playing',
      positionMs: 0,
      speed: 1,
      revision: 0,
      topics: expect.arrayContaining(['tns1:Device/tnsvendor:Test/Quiet']) as unknown,
    });
    rig.scheduler.advance(1500);
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 1500 });
    await post(rig, '/scenario/pause');
    rig.scheduler.advance(5000);
    expect(await status(rig)).toMatchObject({ state: 'paused', positionMs: 1500 });
    await post(rig, '/scenario/play');
    rig.scheduler.advance(500);
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 2000 });
    await post(rig, '/scenario/restart');
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 0 });
    rig.scheduler.advance(250);
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 250 });
  });

  it('holds the position where a finite timeline ended once it has finished', async () => {
    const rig = await startRig(scenarioOf('name: short\ntimeline:\n  - { at: 2s, emit: { topic: tns1:Test/Done } }\n'));
    rig.scheduler.advance(1999);
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 1999 });
    rig.scheduler.advance(1);
    rig.scheduler.advance(10_000);
    expect(await status(rig)).toMatchObject({ name: 'short', state: 'finished', positionMs: 2000 });
    await post(rig, '/scenario/restart');
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 0 });
  });

  it('counts scenario time at the playback speed, and lists the topics in the device namespace', async () => {
    const scenario = scenarioOf(
      [
        'states:',
        '  - { topic: tns1:Device/tnsvendor:IO/Port, source: { port: "1" }, data: { state: "0" } }',
        'timeline:',
        '  - { every: 1h, emit: { topic: tns1:VideoSource/MotionAlarm } }',
      ].join('\n'),
    );
    const rig = await startRig(scenario, { speed: 2, device: { port: 0, namespace: 'acme' } });
    rig.scheduler.advance(1000);
    expect(await status(rig)).toEqual({
      name: null,
      state: 'playing',
      positionMs: 2000,
      speed: 2,
      revision: 0,
      topics: ['tns1:Device/acme:IO/Port', 'tns1:VideoSource/MotionAlarm'],
    });
  });

  it('answers for the device named in the fleet route, which plays on its own', async () => {
    const rig = await startRig(QUIET, { devices: 2 });
    const second = rig.emulator.devices[1].device.serial;
    await post(rig, `/devices/${second}/scenario/pause`);
    rig.scheduler.advance(700);
    expect(await status(rig, `/devices/${second}/scenario`)).toMatchObject({ state: 'paused', positionMs: 0 });
    expect(await status(rig)).toMatchObject({ state: 'playing', positionMs: 700 });
    const res = await fetch(`${rig.control}/devices/NOPE/scenario`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'NO_SUCH_DEVICE' } });
  });

  it('is in the OpenAPI document, with the feed as text/event-stream', async () => {
    const rig = await startRig(QUIET, { devices: 2 });
    const doc = (await (await fetch(`${rig.control}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    for (const path of ['/_emu/scenario', '/_emu/devices/{serial}/scenario'])
      expect(Object.keys(doc.paths[path].get.responses['200'].content ?? {})).toEqual(['application/json']);
    for (const path of ['/_emu/feed', '/_emu/devices/{serial}/feed'])
      expect(Object.keys(doc.paths[path].get.responses['200'].content ?? {})).toEqual(['text/event-stream']);
  });
});
