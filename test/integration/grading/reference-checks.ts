/**
 * What the cases of the reference-client matrix (reference-cases.ts) use to disturb a client and
 * to show that it went through the case: counts of what it logged, the device's journal, and
 * another client of the test's own.
 */
import type { EmulatorHandle } from '../../../src';
import type { GradingReport } from '../../../src/grading/report';
import { CLIENT_HEADER } from '../../../src/base/client-tag';
import type { JournalEntry, JournalKind } from '../../../src/base/journal';
import { openWithToken } from '../../helpers/event-stream-client';
import type { ClientExit, ClientLine, ReferenceClient } from './reference-client';

/** What a case works with: the emulator, its device and the client under test. */
export interface CaseRun {
  readonly emulator: EmulatorHandle;
  readonly serial: string;
  readonly client: ReferenceClient;
  /** The device's journal entries (of `kind`). */
  journal(kind?: JournalKind): JournalEntry[];
}

/** The case run of `client` on device `serial` of `emulator`. */
export function caseRun(emulator: EmulatorHandle, serial: string, client: ReferenceClient): CaseRun {
  return {
    emulator,
    serial,
    client,
    journal: (kind) => emulator.journal({ device: serial, ...(kind ? { kind } : {}) }),
  };
}

/** Lines of `event` the client logged (matching `where`). */
export function count(run: CaseRun, event: string, where?: (line: ClientLine) => boolean): number {
  return run.client.events(event, where).length;
}

/** The notifications the client logged. */
export function notifications(run: CaseRun): ClientLine[] {
  return run.client.events('notification');
}

/** The client configured a second session: it came back after what the case did. */
export function reconnected(run: CaseRun): void {
  saw(run, 'configure again on a new session', count(run, 'configured') >= 2);
}

/** Refusals of the device's journal with `code` (matching `where`). */
export function refusedWith(
  run: CaseRun,
  code: string,
  where: (e: { stale: boolean }) => boolean = () => true,
): number {
  return run.journal('auth-refused').filter((e) => e.kind === 'auth-refused' && e.code === code && where(e)).length;
}

/** Whether the device sent the client a notification after switch `name` went to `state`. */
export function notifiedAfter(run: CaseRun, name: string, state: 'off' | 'end'): boolean {
  const mark = run.journal('fault').find((e) => e.kind === 'fault' && e.name === name && e.state === state);
  return mark !== undefined && run.journal('notification').some((e) => e.seq > mark.seq);
}

/**
 * Whether one session of the client was open from before switch `name` went on until after it
 * went off (a client that reconnected meanwhile, after a late pong on a busy machine, may still
 * have kept its new session through it all).
 */
export function openThrough(run: CaseRun, name: string): boolean {
  const marks = run.journal('fault').filter((e) => e.kind === 'fault' && e.name === name);
  const on = marks.find((e) => e.kind === 'fault' && e.state === 'on');
  const off = marks.find((e) => e.kind === 'fault' && e.state === 'off');
  if (!on || !off) return false;
  const closed = new Set(
    run.journal('ws-close').flatMap((e) => (e.kind === 'ws-close' && e.seq < off.seq ? [e.session] : [])),
  );
  return run.journal('ws-open').some((e) => e.kind === 'ws-open' && e.seq < on.seq && !closed.has(e.session));
}

/** Throws, with what the client logged, unless `ok`. */
export function saw(run: CaseRun, what: string, ok: boolean): void {
  if (ok) return;
  const counts: Record<string, number> = {};
  for (const line of run.client.lines) counts[line.event] = (counts[line.event] ?? 0) + 1;
  const tail = run.client.lines
    .filter((l) => l.event !== 'notification')
    .slice(-20)
    .map((l) => JSON.stringify(l));
  throw new Error(
    `the ${run.client.kind} client did not ${what}: the case did not happen to it.\n` +
      `logged: ${JSON.stringify(counts)}\nlast lines:\n${tail.join('\n')}\n${run.client.output.slice(-2000)}`,
  );
}

/** A session of the test's own (`X-BWC-Emu-Client: test`, not graded) on the case's device: another client. */
export async function otherClient(run: CaseRun): Promise<{ close(): Promise<unknown> }> {
  const { device } = run.emulator.devices.find((d) => d.device.serial === run.serial) ?? {};
  if (!device) throw new Error(`no device ${run.serial}`);
  return openWithToken(device, device.issueToken(), '?sources=events', { headers: { [CLIENT_HEADER]: 'test' } });
}

/** The warnings and errors of a report, each with its message and evidence, as the failure shows them. */
export function problems(report: GradingReport): string[] {
  const broken = report.expectations.filter((e) => e.status === 'broken').map((e) => `expectation broken: ${e.name}`);
  const findings = report.findings
    .filter((f) => f.severity !== 'info')
    .map((f) =>
      [
        `${f.severity} ${f.rule}: ${f.message}`,
        ...f.evidence.map((e) => `  ${JSON.stringify(e)}`),
        ...(f.moreEvidence > 0 ? [`  ... ${f.moreEvidence} more`] : []),
      ].join('\n'),
    );
  return [...findings, ...broken];
}

/** What a dump shows of one client's case. */
export interface DumpedRun {
  readonly run: CaseRun;
  readonly exit: ClientExit;
  readonly report: GradingReport;
}

/**
 * The runs as JSON (`BWC_EMU_MATRIX_DUMP=file`), by name: per client its warnings and errors with
 * their evidence, what it logged and its device's journal, notifications left out, for a look at
 * a whole run.
 */
export function dumpRuns(runs: ReadonlyMap<string, DumpedRun>): string {
  const cases = [...runs].map(([name, { run, exit, report }]) => ({
    name,
    exit,
    findings: report.findings.filter((f) => f.severity !== 'info'),
    lines: run.client.lines.filter((l) => l.event !== 'notification'),
    journal: run.journal().filter((e) => e.kind !== 'notification'),
  }));
  return JSON.stringify(cases, null, 1);
}
