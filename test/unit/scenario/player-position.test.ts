/** Where a scenario is (`ScenarioPlayer.positionMs`), on a ManualScheduler: exact, held while paused and once over. */
import { loadScenario } from '../../../src/scenario/load';
import { ScenarioPlayer, type ScenarioTarget } from '../../../src/scenario/player';
import { ManualScheduler } from '../../../src/scenario/scheduler';
import type { Scenario } from '../../../src/scenario/schema';

function scenarioOf(yaml: string): Scenario {
  const result = loadScenario(yaml, 'test.yaml');
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** A target that does nothing: only time matters here. */
const target: ScenarioTarget = {
  publish: () => undefined,
  setFlags: () => Promise.resolve(),
  closeSessions: () => 0,
  rejectAuth: () => undefined,
  fault: () => Promise.resolve(),
  expect: () => undefined,
};

const FOREVER = scenarioOf('timeline:\n  - { every: 1h, emit: { topic: tns1:Test/A } }\n');
const TWO_SECONDS = scenarioOf('timeline:\n  - { at: 2s, emit: { topic: tns1:Test/A } }\n');

function play(scenario: Scenario, speed = 1): { scheduler: ManualScheduler; player: ScenarioPlayer } {
  const scheduler = new ManualScheduler(50_000);
  const player = new ScenarioPlayer(scenario, target, { scheduler, speed });
  return { scheduler, player };
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

  it('stands still while paused and goes on from there after resume', () => {
    const { scheduler, player } = play(FOREVER);
    player.start();
    scheduler.advance(1000);
    player.pause();
    scheduler.advance(60_000);
    expect(player.positionMs).toBe(1000);
    player.resume();
    scheduler.advance(10);
    expect(player.positionMs).toBe(1010);
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

  it('holds where stop() stopped it', () => {
    const { scheduler, player } = play(FOREVER);
    player.start();
    scheduler.advance(900);
    player.stop();
    scheduler.advance(900);
    expect(player.positionMs).toBe(900);
  });
});
