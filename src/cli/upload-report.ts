/**
 * The end of an upload as people read it: one row per recording (container, status,
 * clips, bytes, seconds, and the request that failed it), the registrations that
 * failed, and the totals with the throughput; and the report as a JSON file.
 */
import { writeFileAtomic } from '../base/atomic-file';
import { formatBytes } from '../base/size';
import type { ConformanceFinding, FailedRequest, RecordingReport, UploadReport } from '../index';

/** `PUT /container/clip.mkv -> 507 quota exceeded`, or `-> message` when there was no answer. */
export function formatRequest(request: FailedRequest): string {
  const message = request.message.replace(/\s*\n\s*/g, ' ').trim();
  const outcome = request.status === undefined ? message : `${request.status}${message ? ` ${message}` : ''}`;
  return `${request.method} ${request.path} -> ${outcome}`;
}

/** The table (the request that failed a recording indented under its row), the registration failures and the totals; ends with a newline. */
export function formatReport(report: UploadReport): string {
  const lines: string[] = [];
  if (report.storageUrl) lines.push(`Destination ${report.storageUrl} (capabilities: ${capabilitiesLine(report)})`, '');
  lines.push(...recordingTable(report.recordings));
  if (report.registrationFailures.length) {
    lines.push('', `Registration failures (${report.registrationFailures.length}):`);
    for (const failure of report.registrationFailures)
      lines.push(`  ${failure.kind} ${failure.id}: ${formatRequest(failure.request)}`);
  }
  lines.push('', ...totalsLines(report));
  return `${lines.join('\n')}\n`;
}

/** Writes the report (and, after `--check`, the findings) as 2-space JSON, atomically. */
export async function writeReportJson(
  file: string,
  report: UploadReport,
  conformance?: { passed: boolean; findings: ConformanceFinding[]; leftBehind?: string[] },
): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(conformance ? { ...report, conformance } : report, null, 2)}\n`);
}

/** Rows under a header, columns padded; the failed request, rejected-content container and warnings indented under their row. */
function recordingTable(recordings: RecordingReport[]): string[] {
  if (recordings.length === 0) return ['No recordings were uploaded.'];
  const header = ['RECORDING', 'STATUS', 'CLIPS', 'BYTES', 'SECONDS'];
  const rows = recordings.map((r) => [
    r.container,
    statusText(r),
    String(r.clips),
    formatBytes(r.bytes),
    r.seconds.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  // Text columns left-aligned, numbers right-aligned.
  const line = (cells: string[]): string =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const lines = [line(header)];
  recordings.forEach((r, i) => {
    lines.push(line(rows[i]));
    if (r.probe) lines.push(`    --check probe (${r.probe}): meant to be refused with 400`);
    if (r.request) lines.push(`    ${formatRequest(r.request)}`);
    if (r.rejectedContent) lines.push(`    stored as rejected content in ${r.rejectedContent}`);
    for (const warning of r.warnings) lines.push(`    warning: ${warning}`);
  });
  return lines;
}

/**
 * A recording's status as the table shows it: a `--check` probe's says it is a probe
 * (`probe: refused`), so it never reads as one of the user's recordings transferred.
 */
export function statusText(r: Pick<RecordingReport, 'status' | 'probe' | 'retries'>): string {
  const status =
    r.probe === undefined
      ? r.status
      : `probe: ${r.status === 'transferred' ? 'accepted' : r.status === 'not transferred' ? 'refused' : 'failed'}`;
  return `${status}${retried(r.retries)}`;
}

/** ` (2 retries)` when a recording's requests were retried, so a row says it did not go through at once. */
function retried(retries: number | undefined): string {
  return retries ? ` (${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
}

/** The totals of the plan's recordings (the probes said apart), bytes and rate, requests and registrations. */
function totalsLines(report: UploadReport): string[] {
  const t = report.totals;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const probes = t.probes ? `; and ${plural(t.probes, '--check probe')}, not counted` : '';
  return [
    `Total: ${plural(t.recordings, 'recording')}: ${t.transferred} transferred, ${t.notTransferred} not transferred, ${t.failed} failed${probes}`,
    `       ${formatBytes(t.bytes)} in ${t.seconds.toFixed(2)} s (${t.megabytesPerSecond.toFixed(2)} MB/s), ${plural(report.requests, 'request')} (${report.retries} retried${waited(report.retryWaitMs)})`,
    `       ${plural(report.usersRegistered, 'user')} and ${plural(report.devicesRegistered, 'camera')} registered${report.registrationFailures.length ? `, ${report.registrationFailures.length} refused` : ''}${retried(report.registrationRetries)}`,
  ];
}

/** `, waited 12.3 s` (before the retries, summed), or nothing when no retry waited. */
function waited(ms: number): string {
  return ms ? `, waited ${(ms / 1000).toFixed(1)} s` : '';
}

function capabilitiesLine(report: UploadReport): string {
  const on = Object.entries(report.capabilities)
    .filter(([, supported]) => supported)
    .map(([name]) => name);
  return `${on.length ? on.join(', ') : 'none'}; from ${report.capabilitiesSource}`;
}
