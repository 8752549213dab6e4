import { ManualClock } from '../../../src/base/clock';
import { createLogger } from '../../../src/base/log';
import { LogSummary } from '../../../src/base/log-summary';

function setup(): { summary: LogSummary; clock: ManualClock; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({ level: 'info', write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const clock = new ManualClock();
  const summary = new LogSummary(log, clock, {
    message: 'failures not logged one by one',
    intervalMs: 1_000,
    burst: 2,
  });
  return { summary, clock, lines };
}

describe('LogSummary', () => {
  it('admits the first few per interval and summarises the rest when the next interval starts', () => {
    const { summary, clock, lines } = setup();
    expect([1, 2, 3, 4, 5].map((i) => summary.admit(i % 2 ? 'a' : 'b'))).toEqual([true, true, false, false, false]);
    expect(lines).toEqual([]);
    clock.advance(1_000);
    expect(summary.admit('a')).toBe(true);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'failures not logged one by one',
        count: 3,
        intervalMs: 1_000,
        by: { a: 2, b: 1 },
      }),
    ]);
  });

  it('logs what it holds at flush, once', () => {
    const { summary, lines } = setup();
    for (let i = 0; i < 5; i++) summary.admit(undefined);
    summary.flush();
    summary.flush();
    expect(lines).toEqual([expect.objectContaining({ count: 3, by: { unknown: 3 } })]);
  });

  it('names at most 10 keys and adds up the others', () => {
    const { summary, lines } = setup();
    summary.admit('x');
    summary.admit('x');
    for (let i = 0; i < 25; i++) summary.admit(`k${i}`);
    summary.flush();
    expect(lines[0]).toMatchObject({ count: 25, others: 15 });
    expect(Object.keys(lines[0].by as object)).toHaveLength(10);
  });
});
