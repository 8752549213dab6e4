/** Rules about what the client subscribes to and how it reads: filters, sessions, slow reading, API versions. */
import type { TopicFilter } from '../../events/topic-filter';
import { RpcErrorCode } from '../../protocol/rpc';
import { finding, type GradingContext, groupBy, plural, type Rule, type RuleTable } from '../grading-context';
import { configuredAt, openAt, remoteOf, type SessionRecord, type Timed } from '../journal-index';
import type { Finding } from '../report';
import { CLOSE_TOO_SLOW } from '../../events/event-session';

/** `invalid-filter`: configures the device refused (for anything but the API version). */
export const invalidFilter: Rule = (context) =>
  perSession(context, (s) => s.configures.filter((c) => c.entry.error && !isVersionError(c.entry.error.code))).map(
    ([device, remote, refused]) => {
      const first = refused[0].entry as { error: { code: number; message: string } };
      const message = `${plural(refused.length, 'configure request')} refused; first: ${first.error.code} ${first.error.message}`;
      return finding('invalid-filter', device, context.index.client(remote), message, refused);
    },
  );

/** `unsupported-api-version`: CGI answers and configures refused with 2100. */
export const unsupportedApiVersion: Rule = (context) => {
  const refused = context.index.entries.filter(
    ({ entry }) =>
      (entry.kind === 'http' || entry.kind === 'configure') && entry.error && isVersionError(entry.error.code),
  );
  const remoteOfEntry = (t: Timed): string | undefined =>
    t.entry.kind === 'http'
      ? t.entry.remote
      : context.index.sessions.find((s) => s.id === sessionOf(t) && s.device === t.entry.device)?.remote;
  return [...groupBy(refused, (t) => `${t.entry.device} ${remoteOf(remoteOfEntry(t))}`).values()].map((group) => {
    const paths = [...new Set(group.map((t) => (t.entry.kind === 'http' ? t.entry.path : 'events:configure')))];
    const message = `${plural(group.length, 'request')} asked for an unsupported API version (${paths.join(', ')})`;
    return finding(
      'unsupported-api-version',
      group[0].entry.device,
      context.index.client(remoteOfEntry(group[0])),
      message,
      group,
    );
  });
};

/** `slow-consumer`: sessions the device closed with 1013. */
export const slowConsumer: Rule = (context) =>
  perSession(context, (s) =>
    s.close?.entry.by === 'device' && s.close.entry.code === CLOSE_TOO_SLOW ? [s.close] : [],
  ).map(([device, remote, closes]) =>
    finding(
      'slow-consumer',
      device,
      context.index.client(remote),
      `${plural(closes.length, 'session')} closed with 1013: the client did not read fast enough`,
      closes,
    ),
  );

/** `concurrent-sessions`: more sessions open at once than a client needs. */
export const concurrentSessions: Rule = (context) => {
  const findings: Finding[] = [];
  const { maxSessionsPerClient } = context.thresholds;
  for (const sessions of groupBy(context.index.sessions, (s) => `${s.device} ${s.remote}`).values()) {
    let peak: SessionRecord[] = [];
    for (const s of sessions) {
      const open = sessions.filter((o) => openAt(o, s.open.at));
      if (open.length > peak.length) peak = open;
    }
    if (peak.length <= maxSessionsPerClient) continue;
    const { device, remote } = peak[0];
    const message = `held ${peak.length} sessions open at once (at most ${maxSessionsPerClient} expected)`;
    findings.push(
      finding(
        'concurrent-sessions',
        device,
        context.index.client(remote),
        message,
        peak.map((s) => s.open),
      ),
    );
  }
  return findings;
};

/** `filter-matches-nothing`: accepted topic filters that select no topic the device publishes. */
export const filterMatchesNothing: Rule = (context) => {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const topicsOf = publishedTopics(context);
  for (const session of context.index.sessions) {
    const topics = topicsOf(session.device);
    for (const configure of session.configures.filter((c) => !c.entry.error)) {
      for (const { topicFilter } of configure.entry.filters) {
        const filter = compiled(context, session.device, topicFilter);
        if (!filter || topics.some(filter.matches)) continue;
        const k = `${session.device} ${session.remote} ${topicFilter}`;
        if (seen.has(k)) continue;
        seen.add(k);
        const message = `topic filter "${topicFilter}" matches none of the ${topics.length} topics the device publishes`;
        findings.push(
          finding('filter-matches-nothing', session.device, context.index.client(session.remote), message, [configure]),
        );
      }
    }
  }
  return findings;
};

/** `duplicate-subscription`: a topic selected twice, by two filters of a session or two sessions of a client. */
export const duplicateSubscription: Rule = (context) => {
  const findings: Finding[] = [];
  const topicsOf = publishedTopics(context);
  for (const sessions of groupBy(context.index.sessions, (s) => `${s.device} ${s.remote}`).values()) {
    const { device, remote } = sessions[0];
    const topics = topicsOf(device);
    const doubled = new Set<string>();
    const evidence: Timed[] = [];
    const selecting = (s: SessionRecord, topic: string, at?: number): number => {
      const configure = configuredAt(s, at);
      if (!configure) return 0;
      return configure.entry.filters
        .filter((f) => f.contentFilter === undefined || f.contentFilter === '')
        .map((f) => compiled(context, device, f.topicFilter ?? ''))
        .filter((f) => f?.matches(topic)).length;
    };
    for (const s of sessions) {
      for (const topic of topics) {
        if (selecting(s, topic) < 2) continue;
        doubled.add(topic);
        evidence.push(configuredAt(s) as Timed);
      }
      // Another session of this client open with s and also selecting the topic.
      for (const other of sessions) {
        if (other === s || other.open.at < s.open.at || !overlap(s, other)) continue;
        for (const topic of topics) {
          if (selecting(s, topic) > 0 && selecting(other, topic) > 0) {
            doubled.add(topic);
            evidence.push(configuredAt(s) as Timed, configuredAt(other) as Timed);
          }
        }
      }
    }
    if (doubled.size === 0) continue;
    const twice = duplicatedNotifications(sessions, doubled);
    const list = [...doubled].sort();
    const message =
      `${plural(list.length, 'topic')} selected twice (${list.slice(0, 3).join(', ')}${list.length > 3 ? ', ...' : ''})` +
      (twice.length > 0 ? `; ${plural(twice.length, 'notification')} arrived twice` : '');
    const unique = [...new Set([...evidence, ...twice])];
    findings.push(finding('duplicate-subscription', device, context.index.client(remote), message, unique));
  }
  return findings;
};

/** The rules of this file by the ids they find (../grade joins the files' tables). */
export const SUBSCRIPTION_RULES = {
  'duplicate-subscription': duplicateSubscription,
  'filter-matches-nothing': filterMatchesNothing,
  'invalid-filter': invalidFilter,
  'concurrent-sessions': concurrentSessions,
  'slow-consumer': slowConsumer,
  'unsupported-api-version': unsupportedApiVersion,
} satisfies RuleTable;

/** The topics each device can publish: its scenario's, and any it sent in the journal (one pass). */
function publishedTopics(context: GradingContext): (device: string) => string[] {
  const byDevice = new Map<string, Set<string>>();
  for (const { entry } of context.index.ofKind('notification')) {
    const topics = byDevice.get(entry.device) ?? new Set(context.devices.get(entry.device)?.topics);
    byDevice.set(entry.device, topics.add(entry.topic));
  }
  return (device) => [...(byDevice.get(device) ?? context.devices.get(device)?.topics ?? [])];
}

/** A filter compiled with the device's aliases; undefined when empty, match-all or not compilable. */
function compiled(context: GradingContext, device: string, expression: string | undefined): TopicFilter | undefined {
  if (expression === undefined || expression.trim() === '') return undefined;
  const filter = context.topicFilter(device, expression);
  return filter?.matchesAll ? undefined : filter;
}

/**
 * The extra copies of events that reached the client more than once: the same event number
 * again, with no configure of the client's sessions in between (a configure replays states).
 */
function duplicatedNotifications(sessions: readonly SessionRecord[], topics: ReadonlySet<string>): Timed[] {
  const configures = sessions.flatMap((s) => s.configures.map((c) => c.entry.seq));
  const all = sessions.flatMap((s) => s.notifications).filter((n) => topics.has(n.entry.topic));
  const extra: Timed[] = [];
  for (const copies of groupBy(all, (n) => String(n.entry.event)).values()) {
    copies.sort((a, b) => a.entry.seq - b.entry.seq);
    copies.forEach((n, i) => {
      const before = copies[i - 1]?.entry.seq;
      if (before !== undefined && !configures.some((seq) => seq > before && seq < n.entry.seq)) extra.push(n);
    });
  }
  return extra.sort((a, b) => a.entry.seq - b.entry.seq);
}

function overlap(a: SessionRecord, b: SessionRecord): boolean {
  return a.open.at < b.endAt && b.open.at < a.endAt;
}

/** Entries picked from each session, grouped per device and client: [device, remote, entries]. */
function perSession(context: GradingContext, pick: (s: SessionRecord) => Timed[]): [string, string, Timed[]][] {
  const groups = new Map<string, [string, string, Timed[]]>();
  for (const s of context.index.sessions) {
    const picked = pick(s);
    if (picked.length === 0) continue;
    const k = `${s.device} ${s.remote}`;
    const group = groups.get(k) ?? [s.device, s.remote, []];
    group[2].push(...picked);
    groups.set(k, group);
  }
  return [...groups.values()];
}

function isVersionError(code: number): boolean {
  return code === RpcErrorCode.VERSION_NOT_SUPPORTED;
}

function sessionOf(t: Timed): string | undefined {
  return 'session' in t.entry ? t.entry.session : undefined;
}
