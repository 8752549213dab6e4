/** What `bwc-emu upload` prints: progress on a terminal and in logs, the final table, the JSON report. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Progress, UploadReport } from '../../../src/bws/body-worn-system';
import { createProgressOutput, finishedLine, progressLine } from '../../../src/cli/upload-progress';
import { formatReport, formatRequest, writeReportJson } from '../../../src/cli/upload-report';
import { CAPABILITY_NAMES, type CapabilityName } from '../../../src/protocol/body-worn';

const progress = (
  recordingsDone: number,
  bytesSent: number,
  recordingsTotal = 3,
  bytesTotal = 3_000_000,
): Progress => ({ recordingsDone, recordingsTotal, bytesSent, bytesTotal });

/** A progress output writing into a list, on a clock the test moves. */
function output(isTty: boolean) {
  const writes: string[] = [];
  let now = 0;
  const out = createProgressOutput({ write: (text) => writes.push(text), isTty, now: () => now, barWidth: 10 });
  return { out, writes, at: (ms: number) => (now = ms) };
}

describe('progressLine', () => {
  it('shows the bar, the share, recordings, bytes in human units and the rate', () => {
    expect(progressLine(progress(1, 1_500_000), 1000, 10)).toBe(
      '[#####-----]   50%  1/3 recordings  1.5 MB / 3.0 MB  1.50 MB/s',
    );
    expect(progressLine(progress(0, 0), 0, 10)).toBe('[----------]    0%  0/3 recordings  0 B / 3.0 MB  0.00 MB/s');
  });

  it('stays at 100% when retries send more bytes than planned, and counts recordings when there are no bytes', () => {
    expect(progressLine(progress(3, 4_000_000), 2000, 10)).toMatch(
      /^\[#{10}\] {2}100% {2}3\/3 recordings {2}4\.0 MB \/ 3\.0 MB {2}2\.00 MB\/s$/,
    );
    expect(progressLine(progress(1, 0, 4, 0), 1000, 8)).toMatch(/^\[##------\] {3}25% {2}1\/4 recordings/);
  });
});

describe('progress on a terminal', () => {
  it('redraws one line with \\r, at most every 100 ms, always the last state, and ends the line', () => {
    const { out, writes, at } = output(true);
    at(0);
    out.update(progress(0, 0));
    at(50);
    out.update(progress(0, 500_000));
    at(99);
    out.update(progress(0, 900_000));
    expect(writes).toHaveLength(1);
    at(100);
    out.update(progress(1, 1_000_000));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toBe('\r[###-------]   33%  1/3 recordings  1.0 MB / 3.0 MB  10.00 MB/s\x1b[K');
    at(150);
    out.update(progress(1, 2_000_000));
    expect(writes).toHaveLength(2);
    out.recordingDone({ container: 'c1', status: 'transferred', bytes: 1_000_000, seconds: 0.1 });
    expect(writes).toHaveLength(2);
    at(160);
    out.update(progress(3, 3_000_000));
    expect(writes).toHaveLength(3); // the complete state is drawn whatever the throttle says
    expect(writes[2]).toMatch(/^\r\[#{10}\] {2}100% {2}3\/3 recordings {2}3\.0 MB \/ 3\.0 MB/);
    out.finish();
    expect(writes.slice(3)).toEqual(['\n']);
    expect(writes.every((w) => !w.includes('\n') || w === '\n')).toBe(true);
  });

  it('draws the pending state when the run ends between redraws', () => {
    const { out, writes, at } = output(true);
    out.update(progress(0, 0));
    at(10);
    out.update(progress(1, 1_000_000, 3));
    out.finish();
    expect(writes).toHaveLength(3);
    expect(writes[1]).toMatch(/^\r\[###-------\] {3}33% {2}1\/3 recordings/);
    expect(writes[2]).toBe('\n');
  });

  it('writes nothing when nothing was reported', () => {
    const { out, writes } = output(true);
    out.finish();
    expect(writes).toEqual([]);
  });
});

describe('progress in a log (not a terminal)', () => {
  it('prints one line to start and one per finished recording, none per byte', () => {
    const { out, writes, at } = output(false);
    out.update(progress(0, 0));
    for (let i = 1; i <= 50; i++) {
      at(i * 200);
      out.update(progress(0, i * 10_000));
    }
    out.recordingDone({
      container: 'officer_1_CAM1_20260101T000000Z',
      status: 'transferred',
      bytes: 2_000_000,
      seconds: 0.314,
    });
    out.recordingDone({
      container: 'officer_2_CAM2_20260101T000000Z',
      status: 'failed',
      bytes: 0,
      seconds: 0.02,
      request: {
        method: 'PUT',
        path: '/officer_2_CAM2_20260101T000000Z/1_a.mkv',
        status: 507,
        message: 'Insufficient Storage',
      },
    });
    out.update(progress(2, 3_000_000));
    out.finish();
    expect(writes.join('')).toBe(
      [
        'Uploading 3 recordings (3.0 MB)',
        'officer_1_CAM1_20260101T000000Z -> transferred, 2.0 MB, 0.31 s',
        'officer_2_CAM2_20260101T000000Z -> failed, 0 B, 0.02 s (PUT /officer_2_CAM2_20260101T000000Z/1_a.mkv -> 507 Insufficient Storage)',
        '',
      ].join('\n'),
    );
    expect(writes.some((w) => w.includes('\r'))).toBe(false);
  });

  it('says "1 recording"', () => {
    const { out, writes } = output(false);
    out.update(progress(0, 0, 1, 1500));
    expect(writes).toEqual(['Uploading 1 recording (1.5 kB)\n']);
  });

  it('leaves the request out of a transferred recording', () => {
    expect(
      finishedLine({
        container: 'c',
        status: 'transferred',
        bytes: 10,
        seconds: 1,
        request: { method: 'PUT', path: '/c', status: 500, message: 'x' },
      }),
    ).toBe('c -> transferred, 10 B, 1.00 s');
  });
});

describe('formatRequest', () => {
  it('shows the method, path, status and message, on one line', () => {
    expect(formatRequest({ method: 'PUT', path: '/c/a.mkv', status: 507, message: 'Insufficient\n  Storage' })).toBe(
      'PUT /c/a.mkv -> 507 Insufficient Storage',
    );
    expect(formatRequest({ method: 'POST', path: '/c', status: 500, message: '' })).toBe('POST /c -> 500');
    expect(formatRequest({ method: 'PUT', path: '/c', message: 'socket hang up (after 5 tries)' })).toBe(
      'PUT /c -> socket hang up (after 5 tries)',
    );
  });
});

const capabilities = (on: CapabilityName[]): Record<CapabilityName, boolean> =>
  Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, on.includes(name)])) as Record<CapabilityName, boolean>;

const REPORT: UploadReport = {
  storageUrl: 'http://127.0.0.1:8090/v1/AUTH_bws',
  capabilities: capabilities(['StoreBookmarks', 'StoreRejectedContent']),
  capabilitiesSource: 'file',
  categories: [],
  registrationFailures: [
    {
      kind: 'device',
      id: 'CAM2',
      request: { method: 'PUT', path: '/Devices/CAM2', status: 402, message: 'no licence left' },
    },
  ],
  usersRegistered: 2,
  devicesRegistered: 1,
  recordings: [
    {
      container: 'u1_CAM1_20260101T000000Z',
      userId: 'u1',
      serial: 'CAM1',
      status: 'transferred',
      clips: 2,
      bytes: 4_000_000,
      seconds: 1.234,
      warnings: [],
    },
    {
      container: 'u2_CAM2_20260101T001000Z',
      userId: 'u2',
      serial: 'CAM2',
      status: 'not transferred',
      clips: 0,
      bytes: 0,
      seconds: 0.05,
      request: {
        method: 'PUT',
        path: '/u2_CAM2_20260101T001000Z',
        status: 400,
        message: 'camera "CAM2" is not registered',
      },
      rejectedContent: 'RejectedContent_20260101T001000Z_x',
      warnings: [],
    },
    {
      container: 'u1_CAM1_20260101T002000Z',
      userId: 'u1',
      serial: 'CAM1',
      status: 'failed',
      clips: 1,
      bytes: 1_000_000,
      seconds: 12.5,
      request: {
        method: 'PUT',
        path: '/u1_CAM1_20260101T002000Z/2_r.mkv',
        status: 507,
        message: 'Insufficient Storage',
      },
      warnings: ['PUT /u1_CAM1_20260101T002000Z/1_r.mkv answered 201 without an ETag; the clip could not be verified'],
    },
  ],
  totals: {
    recordings: 3,
    transferred: 1,
    notTransferred: 1,
    failed: 1,
    bytes: 5_000_000,
    seconds: 13.8,
    megabytesPerSecond: 0.36,
  },
  requests: 14,
  retries: 1,
  retryWaitMs: 1500,
};

describe('formatReport', () => {
  it('prints the table with the failed requests under their rows, the registration failures and the totals', () => {
    expect(formatReport(REPORT)).toBe(
      [
        'Destination http://127.0.0.1:8090/v1/AUTH_bws (capabilities: StoreBookmarks, StoreRejectedContent; from file)',
        '',
        'RECORDING                 STATUS           CLIPS   BYTES  SECONDS',
        'u1_CAM1_20260101T000000Z  transferred          2  4.0 MB     1.23',
        'u2_CAM2_20260101T001000Z  not transferred      0     0 B     0.05',
        '    PUT /u2_CAM2_20260101T001000Z -> 400 camera "CAM2" is not registered',
        '    stored as rejected content in RejectedContent_20260101T001000Z_x',
        'u1_CAM1_20260101T002000Z  failed               1  1.0 MB    12.50',
        '    PUT /u1_CAM1_20260101T002000Z/2_r.mkv -> 507 Insufficient Storage',
        '    warning: PUT /u1_CAM1_20260101T002000Z/1_r.mkv answered 201 without an ETag; the clip could not be verified',
        '',
        'Registration failures (1):',
        '  device CAM2: PUT /Devices/CAM2 -> 402 no licence left',
        '',
        'Total: 3 recordings: 1 transferred, 1 not transferred, 1 failed',
        '       5.0 MB in 13.80 s (0.36 MB/s), 14 requests (1 retried, waited 1.5 s)',
        '       2 users and 1 camera registered, 1 refused',
        '',
      ].join('\n'),
    );
  });

  it('marks the --check probes and says when nothing was uploaded', () => {
    const probe = { ...REPORT.recordings[1], probe: 'unknown-device' as const };
    expect(formatReport({ ...REPORT, recordings: [probe] })).toContain(
      `u2_CAM2_20260101T001000Z  probe: refused      0    0 B     0.05\n    --check probe (unknown-device): meant to be refused with 400\n`,
    );
    const accepted = { ...REPORT.recordings[0], probe: 'unknown-user' as const };
    const totals = { ...REPORT.totals, recordings: 0, transferred: 0, notTransferred: 0, failed: 0, probes: 1 };
    const text = formatReport({ ...REPORT, recordings: [accepted], totals });
    expect(text).toContain('u1_CAM1_20260101T000000Z  probe: accepted  ');
    expect(text).toContain(
      'Total: 0 recordings: 0 transferred, 0 not transferred, 0 failed; and 1 --check probe, not counted\n',
    );
    const empty: UploadReport = {
      ...REPORT,
      storageUrl: '',
      capabilities: capabilities([]),
      registrationFailures: [],
      recordings: [],
      totals: {
        recordings: 0,
        transferred: 0,
        notTransferred: 0,
        failed: 0,
        bytes: 0,
        seconds: 0,
        megabytesPerSecond: 0,
      },
    };
    expect(formatReport(empty)).toBe(
      'No recordings were uploaded.\n\nTotal: 0 recordings: 0 transferred, 0 not transferred, 0 failed\n       0 B in 0.00 s (0.00 MB/s), 14 requests (1 retried, waited 1.5 s)\n       2 users and 1 camera registered\n',
    );
  });
});

describe('retries in the table', () => {
  it('a row says its recording was retried, and the registrations line says theirs', () => {
    const recordings = [
      { ...REPORT.recordings[0], retries: 2 },
      { ...REPORT.recordings[2], retries: 1 },
    ];
    const text = formatReport({ ...REPORT, recordings, registrationRetries: 1 });
    expect(text).toContain('\nu1_CAM1_20260101T000000Z  transferred (2 retries)      2  4.0 MB     1.23\n');
    expect(text).toContain('\nu1_CAM1_20260101T002000Z  failed (1 retry)             1  1.0 MB    12.50\n');
    expect(text).toContain('       2 users and 1 camera registered, 1 refused (1 retry)\n');
  });
});

describe('writeReportJson', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bwc-report-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the report as JSON (creating the directory), with the findings after --check', async () => {
    const file = join(dir, 'deep', 'report.json');
    await writeReportJson(file, REPORT);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(REPORT);
    expect(readFileSync(file, 'utf8')).toMatch(/^{\n {2}"storageUrl"[\s\S]*\n}\n$/);
    const findings = [{ id: 'auth.status', title: 'auth answered 2xx', passed: true }];
    await writeReportJson(file, REPORT, { passed: true, findings });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ ...REPORT, conformance: { passed: true, findings } });
  });
});
