/**
 * The dashboard's own traffic (and the test's, `X-BWC-Emu-Client: test`), end to end: a client that sends `X-BWC-Emu-Client: dashboard`
 * on featureflag.cgi and wssession.cgi, opens the stream with that token and sends an invalid
 * filter is journaled marked `via: 'dashboard'` and graded for nothing; the same steps
 * without the header (or with any other value) are the client's and graded.
 */
import type { JournalEntry } from '../../../src/base/journal';
import type { GradingReport } from '../../../src/grading/report';
import { digestRequest } from '../../helpers/digest-request';
import { handshake, openWithToken, streamTarget, wsUrl } from '../../helpers/event-stream-client';
import { LogTap } from '../../helpers/event-stream-log';
import { sendRequest } from '../../helpers/http';
import { callFeatureFlags } from '../../helpers/rpc-client';
import { EMULATOR_CLIENT_SESSIONS, EMULATOR_CLIENT_TERMS } from '../../../src/events/session-limits';
import { type GradingRun, gradingRig, MOTION, PORT } from './grading-rig';

const start = gradingRig();
const DASHBOARD = { 'X-BWC-Emu-Client': 'dashboard' };
const INVALID = 'tns1:VideoSource//Motion';

/** A session token from wssession.cgi with digest and `headers`; `query` takes the Express path, not the fast one. */
async function token(run: GradingRun, headers: Record<string, string>, query = ''): Promise<string> {
  const path = `${new URL(run.device.urls.sessionToken).pathname}${query}`;
  const answer = await digestRequest(run.device.url, { method: 'GET', path, headers });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** What the dashboard does: list the flags, fetch a token, open the stream, send an invalid filter, close. */
async function dashboardSteps(run: GradingRun, headers: Record<string, string>, query = ''): Promise<void> {
  const flags = await callFeatureFlags(run.device, { apiVersion: '1.0', method: 'listAll' }, { headers });
  expect(flags.json.error).toBeUndefined();
  const client = run.track(await openWithToken(run.device, await token(run, headers, query)));
  const answer = await client.configure([{ topicFilter: INVALID }]);
  expect(answer.error?.code).toBe(2104);
  await client.close();
}

/** GET /_emu/report on the device's port. */
async function report(run: GradingRun): Promise<GradingReport> {
  const answer = await sendRequest(run.device.url, { path: '/_emu/report' });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body) as GradingReport;
}

/** GET /_emu/journal with `query` on the device's port. */
async function journal(run: GradingRun, query = ''): Promise<JournalEntry[]> {
  const answer = await sendRequest(run.device.url, { path: `/_emu/journal${query}` });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { entries: JournalEntry[] }).entries;
}

/** Each entry's kind and `via`. */
const marks = (entries: readonly JournalEntry[]): [string, string | undefined][] =>
  entries.map((e) => [e.kind, 'via' in e ? e.via : undefined]);

/** The entries the steps journal, in order: two digest requests (each a 401 first), then the session. */
const STEPS = ['auth-refused', 'http', 'http', 'auth-refused', 'http', 'http', 'ws-open', 'configure', 'ws-close'];

describe('the dashboard is not graded', () => {
  it.each([
    ['the fast path', ''],
    ['the Express path', '?from=dashboard'],
  ])('journals its steps marked and finds nothing (token from %s)', async (_path, query) => {
    const run = await start();
    await dashboardSteps(run, DASHBOARD, query);
    const entries = await journal(run);
    expect(marks(entries)).toEqual(STEPS.map((kind) => [kind, 'dashboard']));
    const configure = entries.find((e) => e.kind === 'configure');
    expect(configure?.kind === 'configure' && configure.error?.code).toBe(2104);
    expect((await report(run)).findings).toEqual([]);
    expect(run.emulator.report().findings).toEqual([]);
  });

  it("takes `test` for the test's own calls: journaled marked, graded for nothing, read with ?via=test", async () => {
    const run = await start();
    await dashboardSteps(run, { 'X-BWC-Emu-Client': 'test' });
    expect(marks(await journal(run, '?via=test'))).toEqual(STEPS.map((kind) => [kind, 'test']));
    expect(await journal(run, '?via=client')).toEqual([]);
    expect((await report(run)).findings).toEqual([]);
  });

  it('grades the same steps without the header: invalid-filter, entries unmarked', async () => {
    const run = await start();
    await dashboardSteps(run, {});
    expect(marks(await journal(run))).toEqual(STEPS.map((kind) => [kind, undefined]));
    expect((await report(run)).findings.map((f) => f.rule)).toContain('invalid-filter');
  });

  it.each(['Dashboard', 'client', 'dashboard, client'])(
    'ignores the header valued %j: graded as the client, with a log line',
    async (value) => {
      const tap = new LogTap();
      const run = await start({ logger: tap.logger });
      await dashboardSteps(run, { 'X-BWC-Emu-Client': value });
      expect(marks(await journal(run))).toEqual(STEPS.map((kind) => [kind, undefined]));
      expect((await report(run)).findings.map((f) => f.rule)).toContain('invalid-filter');
      const ignored = tap.entries.filter((e) => String(e.msg).startsWith('X-BWC-Emu-Client ignored'));
      // One line per request that carried it (the four HTTP requests; the handshake did not).
      expect(ignored.map((e) => e.value)).toEqual(Array(4).fill(value));
    },
  );

  it("grades the client's traffic next to the dashboard's; ?via= reads either", async () => {
    const run = await start();
    await dashboardSteps(run, DASHBOARD);
    const client = await run.open();
    const answer = await client.configure([{ topicFilter: 'tns1:VideoSource/MotionAlarm' }]);
    expect(answer.error).toBeUndefined();
    expect((await report(run)).findings).toEqual([]);
    await client.configure([{ topicFilter: INVALID }]);
    const findings = (await report(run)).findings;
    expect(findings.map((f) => f.rule)).toEqual(['invalid-filter']);
    const [theirs] = findings[0].evidence;
    expect(theirs.kind === 'configure' && theirs.session).toBe(run.emulator.sessions()[0].id);
    expect(marks(await journal(run, '?via=dashboard'))).toEqual(STEPS.map((kind) => [kind, 'dashboard']));
    expect(marks(await journal(run, '?via=client'))).toEqual([
      ['ws-open', undefined],
      ['configure', undefined],
      ['configure', undefined],
    ]);
  });

  it("marks the dashboard's refused handshakes: a reused token, no WebSocket", async () => {
    const run = await start();
    const used = await token(run, DASHBOARD);
    run.track(await openWithToken(run.device, used));
    const reused = await handshake(wsUrl(run.device, streamTarget(run.device, `?sources=events&wssession=${used}`)));
    expect(reused.ok ? 101 : reused.status).toBe(401);
    await run.emulator.fault('no-websocket', {});
    const fresh = await token(run, DASHBOARD);
    const refused = await handshake(wsUrl(run.device, streamTarget(run.device, `?sources=events&wssession=${fresh}`)));
    expect(refused.ok ? 101 : refused.status).toBe(404);
    const streamPath = new URL(run.device.urls.eventStream).pathname;
    const onStream = (await journal(run, '?kind=auth-refused,ws-refused')).flatMap((e): unknown[][] => {
      if (e.kind === 'ws-refused') return [[e.kind, e.status, e.via]];
      if (e.kind === 'auth-refused' && e.path.startsWith(streamPath)) return [[e.kind, e.code, e.via]];
      return [];
    });
    expect(onStream).toEqual([
      ['auth-refused', 'TOKEN_REUSED', 'dashboard'],
      ['ws-refused', 404, 'dashboard'],
    ]);
    expect((await report(run)).findings).toEqual([]);
  });
});

describe("the dashboard's sessions and the session limits", () => {
  /** A handshake with a token fetched with `headers`: 101, or the refusal's status and body. */
  async function tryOpen(run: GradingRun, headers: Record<string, string>): Promise<101 | [number, string]> {
    const opened = await handshake(
      wsUrl(run.device, streamTarget(run.device, `?sources=events&wssession=${await token(run, headers)}`)),
    );
    if (!opened.ok) return [opened.status, opened.body];
    run.track(opened.client);
    return 101;
  }

  it(`refuses a third dashboard session with 429; the client's own share is untouched`, async () => {
    const run = await start({ limits: { maxSessionsPerAccount: 1, maxAccountTerms: 3, maxSessions: 10 } });
    const three = `${PORT}|${MOTION}|tns1:Device/tnsvendor:Status/SystemReady`;
    for (let i = 0; i < EMULATOR_CLIENT_SESSIONS; i++) {
      const dashboard = run.track(await openWithToken(run.device, await token(run, DASHBOARD)));
      expect((await dashboard.configure([{ topicFilter: three }])).error).toBeUndefined();
    }
    expect(await tryOpen(run, DASHBOARD)).toEqual([
      429,
      `Too many event stream sessions for the dashboard: at most ${EMULATOR_CLIENT_SESSIONS} at once per device\n`,
    ]);
    // The user the dashboard logged in as (root) still has its whole share: one session, three terms.
    const client = await run.open();
    expect((await client.configure([{ topicFilter: three }])).error).toBeUndefined();
    expect(await tryOpen(run, {})).toEqual([
      429,
      'Too many event stream sessions for user "root": at most 1 at once\n',
    ]);
    expect(run.emulator.sessions().map((s) => s.via)).toEqual(['dashboard', 'dashboard', undefined]);
  });

  it(`holds the dashboard's sessions to ${EMULATOR_CLIENT_TERMS} filter terms together, not the account's budget`, async () => {
    const run = await start();
    const wide = (n: number): string => Array.from({ length: n }, (_, i) => `tns1:Test/T${i}`).join('|');
    const dashboard = run.track(await openWithToken(run.device, await token(run, DASHBOARD)));
    const refused = await dashboard.configure([{ topicFilter: wide(EMULATOR_CLIENT_TERMS + 1) }]);
    expect(refused.error?.code).toBe(2104);
    expect(refused.error?.message).toContain(
      `the sessions of the dashboard may hold at most ${EMULATOR_CLIENT_TERMS} together (0 held by its other sessions)`,
    );
    expect((await dashboard.configure([{ topicFilter: wide(EMULATOR_CLIENT_TERMS) }])).error).toBeUndefined();
    // The client's own budget (2,048 by default) takes the same filter and more.
    const client = await run.open();
    expect((await client.configure([{ topicFilter: wide(EMULATOR_CLIENT_TERMS + 1) }])).error).toBeUndefined();
  });

  it("counts the dashboard's sessions toward the device's total", async () => {
    const run = await start({ limits: { maxSessions: 2 } });
    run.track(await run.open());
    expect(await tryOpen(run, DASHBOARD)).toBe(101);
    expect(await tryOpen(run, DASHBOARD)).toEqual([
      503,
      'No free event stream session: this device serves at most 2 at once\n',
    ]);
  });
});
