/**
 * The {@link EmulatorHandle} over the running devices and the shared journal: operations
 * that change something apply to the named device or to every device; reads cover every
 * device (or the named one); waits watch every device (or the named one).
 */
import { isEmulatorClientEntry } from '../base/client-tag';
import { EmulatorError } from '../base/errors';
import {
  JOURNAL_KINDS,
  type Journal,
  type JournalEntry,
  type JournalKind,
  type NotificationEntry,
} from '../base/journal';
import type { SessionInfo } from '../events/event-session';
import type { RunGrading } from './run-grading';
import type { DeviceRef, EmulatorHandle, EmulatorSession, OnDevice, ScenarioStatus, WaitOptions } from './handle';
import type { RunningDevice } from './running-device';

/** How long a wait lasts unless told otherwise. */
const DEFAULT_WAIT_MS = 5000;

/** The handle of `devices` (filled as they start), their `journal`, their `grading`, and how to close them all. */
export function emulatorHandle(
  devices: readonly RunningDevice[],
  journal: Journal,
  grading: RunGrading,
  close: () => Promise<void>,
): EmulatorHandle {
  /** The devices an operation applies to: the named one, or all of them. */
  const targets = (options: OnDevice | undefined): readonly RunningDevice[] =>
    options?.device === undefined ? devices : [pick(devices, options.device)];
  const sessionsOf = (d: RunningDevice, topic?: string): EmulatorSession[] =>
    d.device.sessions(topic).map((s: SessionInfo) => ({ ...s, device: d.device.serial }));
  /** The serial of the named device; undefined when none is named (every device). */
  const serialOf = (options: OnDevice | undefined): string | undefined =>
    options?.device === undefined ? undefined : pick(devices, options.device).device.serial;
  return {
    devices,
    access: () => devices.map((d) => d.access),
    publish: (topic, message, options) =>
      targets(options).map((d) => d.device.publish(topic, message, withoutDevice(options))),
    setState: (topic, message, options) =>
      targets(options).map((d) => d.device.publish(topic, message, { stateful: true })),
    flags: (options) => pick(devices, options?.device ?? 0).device.flags(),
    setFlags: async (values, options) => {
      await Promise.all(targets(options).map((d) => d.device.setFlags(values)));
    },
    sessions: (options) => targets(options).flatMap((d) => sessionsOf(d)),
    closeSessions: (code, options) =>
      targets(options).reduce((n, d) => n + d.device.closeSessions(code, options?.reason), 0),
    waitForSession: (options = {}) => waitForSession(targets(options), sessionsOf, options),
    waitForNotification: (options = {}) => waitForNotification(journal, targets(options), options),
    waitForEntry: (kind, options = {}) => waitForEntry(journal, kind, targets(options), options),
    journal: (filter) => journal.entries(filter),
    newestEntries: (count, options) => journal.newest(count, { device: serialOf(options), after: options?.after }),
    watchJournal: (listener, options) => journal.watchWrites(listener, serialOf(options)),
    get journalSeq() {
      return journal.lastSeq;
    },
    scenarioStatus: (options) => scenarioStatus(pick(devices, options?.device ?? 0)),
    report: (options) => grading.report(options ?? {}, serialOf(options)),
    nameSegment: (name) => grading.nameSegment(name),
    clearJournal: () => journal.clear(),
    get journalDropped() {
      return journal.dropped;
    },
    fault: async (name, params, options) =>
      Promise.all(
        targets(options).map(async (d) => ({ ...(await d.device.fault(name, params)), device: d.device.serial })),
      ),
    clearFaults: (name, options) => targets(options).flatMap((d) => d.device.clearFaults(name)),
    faults: (options) =>
      targets(options).flatMap((d) => d.device.faults().map((f) => ({ ...f, device: d.device.serial }))),
    override: (spec, options) => targets(options).map((d) => ({ ...d.device.override(spec), device: d.device.serial })),
    clearOverrides: (id, options) => targets(options).flatMap((d) => d.device.clearOverrides(id)),
    overrides: (options) =>
      targets(options).flatMap((d) => d.device.overrides().map((o) => ({ ...o, device: d.device.serial }))),
    setScenario: (scenario, options) => targets(options).forEach((d) => d.setScenario(scenario)),
    pauseScenario: (options) => targets(options).forEach((d) => d.pause()),
    playScenario: (options) => targets(options).forEach((d) => d.play()),
    restartScenario: (options) => targets(options).forEach((d) => d.restart()),
    reset: async (options) => {
      // Graded as the test left it (a bad name stops here, before anything is reset).
      grading.endSegment(options?.segment);
      await Promise.all(devices.map((d) => d.reset()));
      // After every session is closed: their closes belong to the test before, not the next one.
      journal.clear();
    },
    close,
  };
}

/** The device named by serial or index; `NO_SUCH_DEVICE` otherwise. */
export function pick(devices: readonly RunningDevice[], ref: DeviceRef): RunningDevice {
  const found = typeof ref === 'number' ? devices[ref] : devices.find((d) => d.device.serial === ref);
  if (!found) {
    const known = devices.map((d) => d.device.serial).join(', ');
    throw new EmulatorError('NO_SUCH_DEVICE', `no device ${JSON.stringify(ref)}; the devices are ${known}`);
  }
  return found;
}

/** Where the scenario of `d` is (its topics as the grader sees them: in the device's namespace). */
function scenarioStatus(d: RunningDevice): ScenarioStatus {
  const { player } = d.run;
  return {
    name: d.scenario.name ?? null,
    state: d.playState,
    positionMs: player.positionMs,
    speed: player.speed,
    revision: d.revision,
    topics: [...d.topics],
  };
}

/** Publish options without the handle's own `device` field. */
function withoutDevice<T extends OnDevice>(options: T | undefined): Omit<T, 'device'> | undefined {
  if (options === undefined) return undefined;
  const { device: _device, ...rest } = options;
  return rest;
}

/** The first session (configured to receive `topic`, when given) already there or yet to come. */
function waitForSession(
  devices: readonly RunningDevice[],
  sessionsOf: (d: RunningDevice, topic?: string) => EmulatorSession[],
  options: WaitOptions,
): Promise<EmulatorSession> {
  // The dashboard's sessions are not the client's (watchers are not told of them either).
  const clientSessions = (topic?: string): EmulatorSession[] =>
    devices.flatMap((d) => sessionsOf(d, topic)).filter((s) => s.via === undefined);
  const present = clientSessions(options.topic);
  if (present.length > 0) return Promise.resolve(present[0]);
  const what = options.topic === undefined ? 'a session' : `a session configured for ${options.topic}`;
  const seen = (): string => sessionsSeen(clientSessions());
  return waitFor<EmulatorSession>({ what, seen, options }, (resolve) => {
    const unwatch = devices.map((d) =>
      d.device.watchSessions((change) => {
        if (options.topic === undefined && change.kind === 'connect')
          resolve({ ...change.session, device: d.device.serial });
        if (options.topic !== undefined && change.kind === 'configure' && change.subscribesTo(options.topic))
          resolve({ ...change.session, device: d.device.serial });
      }),
    );
    return () => unwatch.forEach((stop) => stop());
  });
}

/**
 * The next notification sent to the client under test (of `topic`, on one of `devices`) after
 * the call; those of the emulator's own clients (the dashboard's session) are not waited for.
 */
function waitForNotification(
  journal: Journal,
  devices: readonly RunningDevice[],
  options: WaitOptions,
): Promise<NotificationEntry> {
  const topicOk = (entry: NotificationEntry): boolean => options.topic === undefined || entry.topic === options.topic;
  const what = options.topic === undefined ? 'a notification' : `a notification of ${options.topic}`;
  return waitForJournal(journal, devices, options, {
    what,
    kind: 'notification',
    wanted: (entry): entry is NotificationEntry => entry.kind === 'notification' && topicOk(entry),
    label: (entry) => (entry.kind === 'notification' ? `notification of ${entry.topic}` : entry.kind),
  });
}

/** The next journal entry of `kind` (not of the emulator's own clients) on one of `devices` after the call or `since`. */
function waitForEntry<K extends JournalKind>(
  journal: Journal,
  kind: K,
  devices: readonly RunningDevice[],
  options: WaitOptions,
): Promise<Extract<JournalEntry, { kind: K }>> {
  if (!(JOURNAL_KINDS as readonly string[]).includes(kind))
    return Promise.reject(
      new EmulatorError('BAD_OPTION', `kind must be one of ${JOURNAL_KINDS.join(', ')}, not ${JSON.stringify(kind)}`),
    );
  return waitForJournal(journal, devices, options, {
    what: `a ${kind} entry`,
    kind,
    wanted: (entry): entry is Extract<JournalEntry, { kind: K }> => entry.kind === kind,
    label: (entry) => entry.kind,
  });
}

/** What {@link waitForJournal} waits for: its name, its journal kind, the entries it takes, and how to name the others. */
interface JournalWait<E extends JournalEntry> {
  what: string;
  kind: JournalKind;
  wanted: (entry: JournalEntry) => entry is E;
  label: (entry: JournalEntry) => string;
}

/**
 * The first entry `wait` takes, among the client under test's entries on `devices`: one already
 * written after `options.since`, else the next one. On timeout the error counts what was seen instead.
 */
function waitForJournal<E extends JournalEntry>(
  journal: Journal,
  devices: readonly RunningDevice[],
  options: WaitOptions,
  wait: JournalWait<E>,
): Promise<E> {
  // One device: the journal tells this wait of that device's entries only.
  const only = devices.length === 1 ? devices[0].device.serial : undefined;
  const serials = new Set(devices.map((d) => d.device.serial));
  const ours = (entry: JournalEntry): boolean => !isEmulatorClientEntry(entry) && serials.has(entry.device);
  if (options.since !== undefined) {
    const found = journal.entries({ since: options.since, kind: wait.kind, device: only }).find(ours);
    if (found && wait.wanted(found)) return Promise.resolve(found);
  }
  const others = new Map<string, number>();
  const seen = (): string => countsSeen(others);
  return waitFor<E>({ what: wait.what, seen, options }, (resolve) =>
    journal.watch((entry) => {
      if (!ours(entry)) return;
      if (wait.wanted(entry)) return resolve(entry);
      const label = wait.label(entry);
      others.set(label, (others.get(label) ?? 0) + 1);
    }, only),
  );
}

/** What {@link waitFor} waits for: its name, what was seen instead (for the timeout's message), and the caller's options. */
interface Wait {
  what: string;
  seen: () => string;
  options: WaitOptions;
}

/**
 * Resolves with what `watch` hands its callback first, or fails with `TIMEOUT` naming
 * `what` and what was seen instead after the timeout, or with `CLOSED` when the signal aborts;
 * the watch is removed either way.
 */
function waitFor<T>(wait: Wait, watch: (resolve: (value: T) => void) => () => void): Promise<T> {
  const ms = wait.options.timeout ?? DEFAULT_WAIT_MS;
  const { signal } = wait.options;
  if (!Number.isFinite(ms) || ms < 0)
    return Promise.reject(new EmulatorError('BAD_OPTION', `timeout must be 0 or more milliseconds, not ${ms}`));
  if (signal?.aborted) return Promise.reject(new EmulatorError('CLOSED', `the wait for ${wait.what} was abandoned`));
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    /** Ends the wait once: the timer and the abort listener go, the watch goes after this turn. */
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      return true;
    };
    const stop = watch((value) => {
      if (!settle()) return;
      queueMicrotask(stop);
      resolve(value);
    });
    const timer = setTimeout(() => {
      if (!settle()) return;
      stop();
      reject(new EmulatorError('TIMEOUT', `no ${wait.what.replace(/^an? /, '')} within ${ms} ms; ${wait.seen()}`));
    }, ms);
    const onAbort = (): void => {
      if (!settle()) return;
      stop();
      reject(new EmulatorError('CLOSED', `the wait for ${wait.what} was abandoned`));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** "seen: 2 sessions open, filters ...", for a session wait that timed out. */
function sessionsSeen(sessions: readonly EmulatorSession[]): string {
  if (sessions.length === 0) return 'seen: no session of the client open';
  const filters = sessions.flatMap((s) => s.filters.map((f) => f.topicFilter ?? '(no topic filter)'));
  const open = `${sessions.length} session${sessions.length === 1 ? '' : 's'} open`;
  return filters.length === 0 ? `seen: ${open}, none configured` : `seen: ${open}, topic filters ${filters.join(', ')}`;
}

/** "seen: 3 others (http x2, ws-open)", for a journal wait that timed out. */
function countsSeen(counts: ReadonlyMap<string, number>): string {
  if (counts.size === 0) return 'seen: nothing else';
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = [...counts].map(([label, n]) => (n === 1 ? label : `${label} x${n}`));
  return `seen: ${total} other${total === 1 ? '' : 's'} (${parts.join(', ')})`;
}
