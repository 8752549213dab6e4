/** A scenario's `expect:` steps, judged against what the client did after each began. */
import type { GradingContext } from './grading-context';
import type { ExpectationResult } from './report';
import type { SessionRecord, Timed } from './journal-index';

/** The result of every `expect` entry in the journal, oldest first. */
export function judgeExpectations(context: GradingContext): ExpectationResult[] {
  return context.index.ofKind('expect').map((expect) => {
    const { device, name, that, topic, withinMs } = expect.entry;
    const met = firstAfter(context, device, expect.at, that === 'configured' ? (topic ?? null) : undefined);
    const tookMs = met === undefined ? undefined : met.at - expect.at;
    const status =
      tookMs !== undefined && tookMs <= withinMs
        ? 'held'
        : tookMs !== undefined || context.now - expect.at > withinMs
          ? 'broken'
          : 'pending';
    return { device, name, that, topic, since: expect.entry.time, withinMs, status, tookMs, evidence: met?.entry };
  });
}

/**
 * The first session opened (topic undefined), or successfully configured (topic null: any
 * filters; a string: filters selecting it), on `device` at or after `since`.
 */
function firstAfter(
  context: GradingContext,
  device: string,
  since: number,
  topic: string | null | undefined,
): Timed | undefined {
  const sessions = context.index.sessions.filter((s) => s.device === device);
  if (topic === undefined) return sessions.find((s) => s.open.at >= since)?.open;
  const candidates = sessions.flatMap((s) =>
    s.configures.filter((c) => c.at >= since && !c.entry.error && selects(context, s, c, topic)),
  );
  return candidates.sort((a, b) => a.at - b.at)[0];
}

function selects(
  context: GradingContext,
  session: SessionRecord,
  configure: SessionRecord['configures'][number],
  topic: string | null,
): boolean {
  if (topic === null) return true;
  return configure.entry.filters.some(
    (f) =>
      f.topicFilter === undefined ||
      f.topicFilter.trim() === '' ||
      context.topicFilter(session.device, f.topicFilter)?.matches(topic) === true,
  );
}
