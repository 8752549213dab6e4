/**
 * Where a scenario is (`ScenarioPlayer.positionMs`), on a ManualScheduler: exact, held while
 * paused, once stopped and once over (at the last step's own time, however late its timer
 * ran); and whether it has finished (`finished`, `onFinish`).
 */
import { ScenarioPlayer, type ScenarioTarget } from '../../../src/scenario/player';
import { ManualScheduler, type Scheduler } from '../../../src/scenario/scheduler';
import type { Scenario } from '../../../src/scenario/schema';
import { scenarioOf } from '../../helpers/scenario-of';

/** A target that does nothing: only time matters here. */
const target: ScenarioTarget = {
  publish: () => undefined,
  setFlags: () => Promise.resolve(),
  closeSessions: () => 0,
  rejectAuth: () => undefined,
  fault: () => Promise.resolve(),
  override: () => undefined,
  expect: () => undefined,
};

const FOREVER = scenarioOf('timeline:\n  - { every: 1h, emit: { topic: tns1:Test/A } }\n');
const TWO_SECONDS = scenarioOf('timeline:\n  - { at: 2s, emit: { topic: tns1:Test/A } }\n');

/** A player of `scenario` at `speed`, its timers running `lateMs` after they are due (as a busy process's do). */
function play(scenario: Scenario, speed = 1, lateMs = 0): { scheduler: ManualScheduler; player: ScenarioPlayer } {
  const scheduler = new ManualScheduler(50_000);
  const player = new ScenarioPlayer(scenario, target, { scheduler: late(scheduler, lateMs), speed });
  return { scheduler, player };
}

/** A scheduler whose timers run `lateMs` after they are due. */
function late(scheduler: ManualScheduler, lateMs: number): Scheduler {
  return { now: () => scheduler.now(), setTimer: (at, fn) => scheduler.setTimer(at + lateMs, fn) };
}

describe('ScenarioPlayer.positionMs', () => {
  it('is 0 before start, then the scheduler time since the start', () => {
    const { scheduler, player } = play(FOREVER);
    scheduler.advance(300);
    expect(player.positionMs).toBe(0);
    player.start();
    expect(player.positionMs).toBe(0);
    scheduler.advance(1234);
    expect(player.positionMs).toBe(1234);
  });

  it.each([
    { halt: 'pause', resumed: 'goes on from there', at: 1010 },
    { halt: 'stop', resumed: 'stays', at: 1000 },
  ] as const)('stands still after $halt(), and after resume() $resumed', ({ halt, at }) => {
    const { scheduler, player } = play(FOREVER);
    player.start();
    scheduler.advance(1000);
    player[halt]();
    scheduler.advance(60_000);
    expect(player.positionMs).toBe(1000);
    player.resume();
    scheduler.advance(10);
    expect(player.positionMs).toBe(at);
  });

  it('counts scenario time: scheduler time times the speed', () => {
    const { scheduler, player } = play(FOREVER, 2.5);
    player.start();
    scheduler.advance(400);
    expect(player.speed).toBe(2.5);
    expect(player.positionMs).toBe(1000);
  });

  it('holds where the timeline ended, paused or not, and goes back to 0 on restart', async () => {
    const { scheduler, player } = play(TWO_SECONDS);
    player.start();
    scheduler.advance(5000);
    await player.done;
    expect(player.positionMs).toBe(2000);
    player.pause();
    scheduler.advance(1000);
    player.resume();
    expect(player.positionMs).toBe(2000);
    player.restart();
    expect(player.positionMs).toBe(0);
    scheduler.advance(700);
    expect(player.positionMs).toBe(700);
  });

  it("holds at the last step's own scenario time, not where its late timer found the clock", async () => {
    const { scheduler, player } = play(TWO_SECONDS, 2, 7);
    player.start();
    scheduler.advance(5000);
    await player.done;
    expect(player.finished).toBe(true);
    expect(player.positionMs).toBe(2000);
  });
});

describe('ScenarioPlayer.finished', () => {
  it('is true from when the timeline has played until a restart; false before start, on a timeline that never ends, after stop', () => {
    let told = 0;
    const scheduler = new ManualScheduler(0);
    const player = new ScenarioPlayer(TWO_SECONDS, target, { scheduler, onFinish: () => told++ });
    expect(player.finished).toBe(false);
    player.start();
    scheduler.advance(1999);
    expect([player.finished, told]).toEqual([false, 0]);
    scheduler.advance(1);
    // Told as the last step runs, not a turn of the event loop later.
    expect([player.finished, told]).toEqual([true, 1]);
    player.pause();
    player.resume();
    scheduler.advance(10_000);
    expect([player.finished, told]).toEqual([true, 1]);
    player.restart();
    expect([player.finished, told]).toEqual([false, 1]);
    scheduler.advance(2000);
    expect([player.finished, told]).toEqual([true, 2]);
    player.stop();
    expect([player.finished, told]).toEqual([false, 2]);
    const forever = new ScenarioPlayer(FOREVER, target, { scheduler });
    forever.start();
    scheduler.advance(10 * 3600_000);
    expect(forever.finished).toBe(false);
    forever.stop();
  });

  it('is true at once for a timeline with nothing to play, told during start()', () => {
    let told = 0;
    const player = new ScenarioPlayer(scenarioOf('name: empty'), target, {
      scheduler: new ManualScheduler(0),
      onFinish: () => told++,
    });
    player.start();
    expect([player.finished, player.positionMs, told]).toEqual([true, 0, 1]);
  });
});
