/**
 * The device dashboard (`GET /`) in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, logging in with the browser's digest credentials, against an emulator
 * playing a motion alarm every 250 ms. Each test checks what the page shows AND what the
 * device really did, through a client of its own (featureflag.cgi listAll, a second stream
 * session, the emulator's handle): login, live events with pause and a rate, an invalid
 * filter shown inline at its column, flag toggles by mouse and keyboard, publishing, fault
 * switches, the session list, the live journal, the client report, the scenario controls,
 * the page without the control API, and the layout at a desktop and a phone width.
 *
 * Without Chromium the file is skipped with a warning saying how to install it, as the
 * interop tests are without their tools; with BWC_EMU_REQUIRE_TOOLS=1 (CI) it fails instead.
 * One browser for the file, a fresh context (login, storage) for each test; no sleeps:
 * every wait is on a DOM condition or a device event, with a timeout.
 */
import type { Page } from 'playwright-core';
import { type ConfigureEntry, FAULT_CATALOGUE, FAULT_NAMES } from '../../src';
import { isEmulatorClientEntry } from '../../src/base/client-tag';
import { describeInChromium, sidewaysOverflow } from '../helpers/browser';
import {
  countOf,
  dashboardRig,
  eventRows,
  fetchedPaths,
  flagSelector,
  focusedId,
  inPage,
  MOTION,
  MOTION_ROWS,
  openDashboard,
  PAGE_WAIT_MS,
  pageUntil,
  recordedTexts,
  recordFetches,
  recordTexts,
  startFastEmulator,
  textOf,
  waitForCount,
  waitForText,
  waitReady,
} from '../helpers/dashboard-page';
import { fetchToken, openWithToken, type StreamClient } from '../helpers/event-stream-client';
import { callFeatureFlags, type ListAllResponse } from '../helpers/rpc-client';
import { until } from '../helpers/until';

/** Skipped with a warning without Chromium, unless BWC_EMU_REQUIRE_TOOLS=1 (then they fail). */
const describeWithChromium = describeInChromium('the device dashboard');
const rig = dashboardRig();
const { dashboard } = rig;

/** The device, its first (only) one. */
function device() {
  return rig.emulator.devices[0].device;
}

/** A stream session of the test's own, logged in with a session token from wssession.cgi. */
async function externalClient(): Promise<StreamClient> {
  const client = await openWithToken(device(), await fetchToken(device()));
  rig.closeAfterEach(client);
  return client;
}

/** The flags as an independent featureflag.cgi listAll (digest) reads them. */
async function listAll(): Promise<Record<string, boolean>> {
  const answer = await callFeatureFlags(device(), { apiVersion: '1.0', context: 'test', method: 'listAll' });
  expect(answer.status).toBe(200);
  const { flags } = (answer.json as ListAllResponse).data;
  return Object.fromEntries(flags.map((f) => [f.name, f.value]));
}

/** The page's own stream session on the device (the only session before the test opens one). */
async function pageSession(): Promise<{ id: string; filters: unknown[] }> {
  await until(() => rig.emulator.sessions().length === 1, 'the dashboard session');
  return rig.emulator.sessions()[0];
}

/** The texts of the <code> elements in `selector`, in order. */
function codeTexts(page: Page, selector: string): Promise<string[]> {
  return inPage<string[]>(page, 's => [...document.querySelectorAll(`${s} code`)].map((c) => c.textContent)', selector);
}

/**
 * The text of each line `selector`'s element is laid out in, top to bottom: its characters
 * grouped by the top of their box (page code as text: the tests are typed without the DOM).
 */
function lineTexts(page: Page, selector: string): Promise<string[]> {
  return inPage<string[]>(
    page,
    `s => {
      const lines = [];
      let top;
      const walker = document.createTreeWalker(document.querySelector(s), NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode())
        for (let i = 0; i < node.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const box = range.getClientRects()[0];
          if (!box) continue;
          if (top === undefined || Math.abs(box.top - top) > 2) lines.push('');
          top = box.top;
          lines[lines.length - 1] += node.data[i];
        }
      return lines;
    }`,
    selector,
  );
}

/** Seconds of an `HH:MM:SS` (or `Nd HH:MM:SS`) duration as the page shows it. */
function seconds(text: string): number {
  const m = /^(?:(\d+)d )?(\d\d):(\d\d):(\d\d)/.exec(text.trim());
  if (!m) throw new Error(`not a duration: "${text}"`);
  return Number(m[1] ?? 0) * 86_400 + Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4]);
}

describeWithChromium('the device dashboard in Chromium', () => {
  it('asks for the device login, then shows who the device is and an uptime that counts', async () => {
    const anonymous = await fetch(`${rig.url}/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(
      new RegExp(`^Digest .*realm="${device().realm}".*nonce="`),
    );
    await anonymous.text();
    expect((await fetch(`${rig.url}/dashboard/nope.js`)).status).toBe(404);
    const page = await rig.tab();
    const answer = await page.goto(`${rig.url}/`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await waitReady(page);
    const { identity } = device().options;
    expect(await textOf(page, '#device-serial')).toBe(device().serial);
    expect(await textOf(page, '#identity-serial')).toBe(device().serial);
    expect(await textOf(page, '#identity-model')).toBe(`${identity.ProdFullName} (${identity.ProdNbr})`);
    expect(await textOf(page, '#identity-firmware')).toBe(identity.Version);
    expect(await textOf(page, '#identity-realm')).toBe(device().realm);
    const first = seconds(await textOf(page, '#identity-uptime'));
    await pageUntil(
      page,
      'the uptime to count up',
      `up => { const t = document.getElementById('identity-uptime').textContent; return t !== up && t; }`,
      await textOf(page, '#identity-uptime'),
    );
    expect(seconds(await textOf(page, '#identity-uptime'))).toBeGreaterThan(first);
  });

  it('works opened with the login in its address (http://root:pass@host/): the page fetches without it', async () => {
    // No credentials of the context's own: the address is the only login the browser has.
    const context = await rig.browser.newContext();
    try {
      context.setDefaultTimeout(PAGE_WAIT_MS);
      const page = await context.newPage();
      const address = new URL(`${rig.url}/`);
      address.username = 'root';
      address.password = 'pass';
      // The document's base URL keeps the login; fetch refused every path resolved against it.
      expect(await page.goto(address.href).then((a) => a?.status())).toBe(200);
      expect(await inPage(page, '() => document.baseURI')).toBe(address.href);
      await waitReady(page);
      expect(await textOf(page, '#device-serial')).toBe(device().serial);
      // The control API's feed (journal) and the page's own stream session work too.
      await page.waitForSelector('#journal-list li[data-kind="ws-open"]');
      await waitForCount(page, MOTION_ROWS, 1);
      expect(await page.locator('#page-notice').isHidden()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('shows scenario events live with a rate; Pause holds them and Resume shows them', async () => {
    const page = await rig.liveDashboard();
    expect((await pageSession()).filters).toEqual([{ topicFilter: '' }]);
    const rate = await waitForText(page, '#events-rate', /^(?!0\.0 )\d+\.\d events\/s$/);
    expect(parseFloat(rate)).toBeGreaterThan(0);

    await page.focus('#events-pause');
    await page.keyboard.press('Enter');
    // A toggle: aria-pressed says it is held, the label stays; the keyboard stays on it.
    expect(await page.getAttribute('#events-pause', 'aria-pressed')).toBe('true');
    expect(await textOf(page, '#events-pause')).toBe('Pause');
    expect(await focusedId(page)).toBe('events-pause');
    // Whatever arrived before the press has been drawn: no row waits for a frame.
    await pageUntil(
      page,
      'the rows queued to be drawn',
      `() => !document.getElementById('event-list').hasAttribute('aria-busy')`,
    );
    const shown = await countOf(page, '#event-list li.event');
    await waitForText(page, '#events-held', /^Paused: ([4-9]|\d\d+) held$/);
    expect(await countOf(page, '#event-list li.event')).toBe(shown);

    await page.click('#events-pause');
    expect(await page.getAttribute('#events-pause', 'aria-pressed')).toBe('false');
    const held = Number(/(\d+) held/.exec(await textOf(page, '#events-held'))?.[1]);
    expect(held).toBeGreaterThanOrEqual(4);
    await waitForCount(page, '#event-list li.event', shown + held + 1);
  });

  it('shows an invalid topic filter inline at its column, and takes the fixed one', async () => {
    const page = await rig.liveDashboard();
    const session = await pageSession();
    const bad = 'tns1:VideoSource//Motion';
    // What the device says about this filter, asked by a client of the test's own.
    const answer = await (await externalClient()).configure([{ topicFilter: bad }]);
    expect(answer.error?.code).toBe(2104);
    const column = Number(/at column (\d+)/.exec(answer.error?.message ?? '')?.[1]);
    expect(column).toBe(19);

    await page.fill('#topic-filter', bad);
    await page.click('#events-apply');
    await page.waitForSelector('#topic-filter-error p.error[data-column]');
    expect(await page.getAttribute('#topic-filter-error p.error', 'data-column')).toBe(String(column));
    expect(await textOf(page, '#topic-filter-error p.error')).toContain(`at column ${column}`);
    expect(await page.getAttribute('#topic-filter', 'aria-invalid')).toBe('true');
    expect(await textOf(page, '#events-status')).toBe(
      'Connected: the new filter was refused; the previous one still applies',
    );
    const caret = (await textOf(page, '#topic-filter-error pre.caret')).split('\n');
    expect(caret).toEqual([bad, `${' '.repeat(column - 1)}^`]);
    expect(await page.locator('#content-filter-error').isHidden()).toBe(true);
    // The device kept the page's previous filter.
    expect(rig.emulator.sessions().find((s) => s.id === session.id)?.filters).toEqual([{ topicFilter: '' }]);

    await page.fill('#topic-filter', MOTION);
    await page.click('#events-apply');
    await until(
      () =>
        JSON.stringify(rig.emulator.sessions().find((s) => s.id === session.id)?.filters) ===
        `[{"topicFilter":"${MOTION}"}]`,
      'the device to take the fixed filter',
    );
    // The page has the device's answer: the error is gone.
    await waitForText(page, '#events-status', /^Connected: filter applied$/);
    expect(await page.locator('#topic-filter-error').isHidden()).toBe(true);
    expect(await countOf(page, '#topic-filter-error p.error')).toBe(0);
    expect(await page.getAttribute('#topic-filter', 'aria-invalid')).toBeNull();
    const before = await countOf(page, MOTION_ROWS);
    await waitForCount(page, MOTION_ROWS, before + 2);
  });

  it('toggles a flag by click and one by keyboard through featureflag.cgi', async () => {
    const page = await dashboard();
    await waitForCount(page, '#flag-list li[data-testid=flag]', 1);
    const before = await listAll();
    const names = Object.keys(before);
    expect(names.length).toBeGreaterThanOrEqual(2);
    expect(await countOf(page, '#flag-list li[data-testid=flag]')).toBe(names.length);
    const [clicked, keyed] = names;
    const id = flagSelector;
    expect(await page.isChecked(id(clicked))).toBe(before[clicked]);
    expect(await page.getAttribute(id(clicked), 'role')).toBe('switch');

    await page.click(id(clicked));
    await page.waitForSelector(`${id(clicked)}${before[clicked] ? ':not(:checked)' : ':checked'}:enabled`);
    expect((await listAll())[clicked]).toBe(!before[clicked]);

    await page.focus(id(keyed));
    await page.keyboard.press('Space');
    await page.waitForSelector(`${id(keyed)}${before[keyed] ? ':not(:checked)' : ':checked'}:enabled`);
    const after = await listAll();
    expect(after).toEqual({ ...before, [clicked]: !before[clicked], [keyed]: !before[keyed] });
    // The keyboard stays where it was: on the switch, drawn again from listAll.
    await pageUntil(
      page,
      'the focus back on the switch',
      'id => document.activeElement?.id === id',
      id(keyed).slice(1),
    );
    expect(await textOf(page, '#flags-error')).toBe('');
  });

  it('publishes an event from the form; it shows live and its topic is offered after a reload', async () => {
    const page = await rig.liveDashboard();
    const topic = 'tns1:Device/Trigger/Relay';
    const listener = await externalClient();
    await listener.configure([{ topicFilter: topic }]);
    expect(await countOf(page, `#publish-topics option[value="${topic}"]`)).toBe(0);
    expect(await page.inputValue('#publish-data-name-0')).toBe('state');
    expect(await page.inputValue('#publish-data-value-0')).toBe('1');

    await page.fill('#publish-topic', topic);
    await page.fill('#publish-data-value-0', 'active');
    await page.click('#publish-submit');
    await waitForText(page, '#publish-result', new RegExp(`^Published ${topic}`));
    await waitForCount(page, eventRows(topic), 1);
    expect(await textOf(page, `${eventRows(topic)} .part-data`)).toBe('data: state=active');
    // The device sent it to another client too.
    const got = await listener.next();
    expect(got.params?.notification).toMatchObject({ topic, message: { data: { state: 'active' } } });

    await page.reload();
    await waitReady(page);
    await page.waitForSelector(`#publish-topics option[value="${topic}"]`, { state: 'attached' });
  });

  it('lists every fault switch with its explanation and parameters; drop and stall take effect', async () => {
    const page = await rig.liveDashboard();
    await waitForCount(page, '#fault-list article[data-fault]', FAULT_NAMES.length);
    // The catalogue's text is the docs' Markdown: its `code` is shown as <code>, without the backticks.
    for (const name of FAULT_NAMES) {
      const { does } = FAULT_CATALOGUE[name];
      const codes = [...does.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      expect([name, await textOf(page, `#fault-${name}-does`)]).toEqual([name, does.replace(/`([^`]+)`/g, '$1')]);
      expect([name, await codeTexts(page, `#fault-${name}-does`)]).toEqual([name, codes]);
    }
    expect(await codeTexts(page, '#fault-stall-does')).toEqual(['pings: false']);
    expect(await textOf(page, '#faults-panel')).not.toContain('`');

    // drop, closing with a code and reason of the test's choosing.
    await page.click('#fault-drop-details summary');
    expect(await page.inputValue('#fault-drop-param-code')).toBe('1011');
    await page.selectOption('#fault-drop-param-mode', 'close');
    await page.fill('#fault-drop-param-code', '4000');
    await page.fill('#fault-drop-param-reason', 'dropped by the test');
    const dropped = (await pageSession()).id;
    await recordTexts(page, '#events-status');
    await page.click('#fault-drop-on');
    await waitForText(page, '#fault-drop-status', /^done at /);
    await until(
      () => rig.emulator.sessions().some((s) => s.id !== dropped && s.filters.length > 0),
      'the page to reconnect with its filter',
    );
    await waitForText(page, '#events-status', /^Connected: filter applied$/);
    const statuses = await recordedTexts(page, '#events-status');
    expect(statuses).toContainEqual(
      expect.stringMatching(/^Closed by the device: 4000 dropped by the test; reconnecting in 1 s$/),
    );
    expect(rig.emulator.journal({ kind: 'ws-close' })).toContainEqual(
      expect.objectContaining({ session: dropped, code: 4000, reason: 'dropped by the test' }),
    );
    const before = await countOf(page, MOTION_ROWS);
    await waitForCount(page, MOTION_ROWS, before + 2);

    // stall: a state switch, on then off, as the device holds it.
    await page.click('#fault-stall-details summary');
    expect(await page.isChecked('#fault-stall-param-pings')).toBe(true);
    await page.click('#fault-stall-on');
    await page.waitForSelector('#fault-stall-state[data-on="true"]');
    expect(await textOf(page, '#fault-stall-state')).toMatch(/^on since /);
    expect(rig.emulator.faults().map((f) => f.name)).toEqual(['stall']);
    await page.click('#fault-stall-off');
    await page.waitForSelector('#fault-stall-state[data-on="false"]');
    expect(rig.emulator.faults()).toEqual([]);
    expect(await textOf(page, '#fault-stall-error')).toBe('');
  });

  it('lists the answer overrides in force, read-only, as they are made, used and cleared', async () => {
    const page = await rig.liveDashboard();
    await waitForText(page, '#override-list', /^None: /);
    const [made] = rig.emulator.override({
      cgi: 'featureflag.cgi',
      method: 'listAll',
      answer: { error: { code: 2104, message: 'busy' } },
      times: 2,
    });
    await waitForText(
      page,
      `#override-list li[data-id="${made.id}"]`,
      /featureflag\.cgi listAll answered with JSON-RPC error 2104 busy \(0 of 2 answered\)/,
    );
    rig.emulator.clearOverrides();
    await waitForText(page, '#override-list', /^None: /);
  });

  it("lists an outside client's session with its address, filter and a rising sent count", async () => {
    const page = await dashboard();
    await pageSession();
    const client = await externalClient();
    const filter = MOTION;
    expect((await client.configure([{ topicFilter: filter }])).error).toBeUndefined();
    const session = rig.emulator.sessions().find((s) => s.filters.some((f) => f.topicFilter === filter));
    if (!session) throw new Error('no session with the filter');
    const row = `#session-rows tr[data-session="${session.id}"]`;
    await page.waitForSelector(row);
    expect(await textOf(page, `${row} td.col-remote`)).toBe(session.remoteAddress);
    expect(session.remoteAddress).toMatch(/127\.0\.0\.1/);
    expect(await textOf(page, `${row} td.col-user`)).toBe('root');
    expect(await textOf(page, `${row} td.col-filters`)).toBe(filter);
    expect(await textOf(page, `${row} td.col-state`)).toBe(session.state);
    await waitForText(page, `${row} td.col-sent`, /^[1-9]\d*$/);
    const sent = Number(await textOf(page, `${row} td.col-sent`));
    await pageUntil(page, 'the sent count to rise', `([s, n]) => Number(document.querySelector(s)?.textContent) > n`, [
      `${row} td.col-sent`,
      sent,
    ]);
    expect(Number(await textOf(page, `${row} td.col-sent`))).toBeLessThanOrEqual(client.received);
    // The page's own session is listed too.
    expect(await countOf(page, '#session-rows tr[data-testid=session]')).toBe(2);
    expect(await textOf(page, '#sessions-count')).toBe('2 sessions');

    await client.close();
    await page.waitForSelector(row, { state: 'detached' });
    expect(await countOf(page, '#session-rows tr[data-testid=session]')).toBe(1);
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ])
    it(`breaks a session's topic filter between its names, after a / or |, at ${width} x ${height}`, async () => {
      const page = await rig.dashboard(width, height);
      const client = await externalClient();
      const filter = `${MOTION}|tns1:Device/tnsvendor:IO/Port|tns1:Device/Trigger/DigitalInput`;
      expect((await client.configure([{ topicFilter: filter }])).error).toBeUndefined();
      const session = rig.emulator.sessions().find((s) => s.filters.some((f) => f.topicFilter === filter));
      const cell = `#session-rows tr[data-session="${session?.id}"] td.col-filters`;
      await page.waitForSelector(cell);
      expect(await textOf(page, cell)).toBe(filter);
      const lines = await lineTexts(page, cell);
      // It does not fit on one line in either layout; every line but the last ends with a whole name.
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.join('')).toBe(filter);
      expect(lines.slice(0, -1).filter((line) => !/[/|]$/.test(line))).toEqual([]);
      expect(await sidewaysOverflow(page)).toBe(0);
    });

  it("shows an outside client's configure in the journal as it happens", async () => {
    const page = await dashboard();
    await pageSession();
    await page.waitForSelector('#journal-list li[data-kind="ws-open"]');
    expect(await textOf(page, '#journal-list li[data-kind="ws-open"] .what')).toMatch(
      /^session s\d+ opened by root from /,
    );
    const client = await externalClient();
    const filter = 'tns1:Device//.';
    await client.configure([{ topicFilter: filter }]);
    const entry = rig.emulator
      .journal({ kind: 'configure' })
      .find((e): e is ConfigureEntry => e.kind === 'configure' && e.filters[0]?.topicFilter === filter);
    if (!entry) throw new Error('the device journaled no configure with the filter');
    const row = `#journal-list li[data-kind="configure"][data-seq="${entry.seq}"]`;
    await page.waitForSelector(row);
    expect(await textOf(page, `${row} .what`)).toBe(
      `session ${entry.session} configured [{"topicFilter":"${filter}"}]`,
    );
    // Newest first: nothing the device journaled before it is listed above it.
    const seqs = await inPage<number[]>(
      page,
      '() => [...document.querySelectorAll("#journal-list li")].map((li) => Number(li.dataset.seq))',
    );
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
  });

  it("reports an outside client's refused filter as a finding with its fix, not the page's own", async () => {
    const page = await rig.liveDashboard();
    await page.click('#report-refresh');
    await waitForText(page, '#report-summary', /graded at|the journal is empty/);
    const finding = '#report-findings li.finding[data-rule="invalid-filter"]';
    expect(await countOf(page, finding)).toBe(0);

    // The page's own refused filter: the dashboard is not the client under test.
    await page.fill('#topic-filter', 'tns1:VideoSource//Motion');
    await page.click('#events-apply');
    await page.waitForSelector('#topic-filter-error p.error[data-column]');
    const client = await externalClient();
    const answer = await client.configure([{ topicFilter: 'tns1:Bad((' }]);
    expect(answer.error?.code).toBe(2104);
    // The report may be being read as the device journals the refusal: a Refresh pressed then reads it again after.
    await page.click('#report-refresh');
    await page.waitForSelector(finding);
    expect(await countOf(page, finding)).toBe(1);
    expect(await textOf(page, `${finding} .message`)).toBe(
      `1 configure request refused; first: 2104 ${answer.error?.message}`,
    );
    expect(await textOf(page, `${finding} .fix`)).toMatch(/^Fix: Read the error answer of events:configure;/);
    expect(await codeTexts(page, `${finding} .fix`)).toEqual(['events:configure']);
    expect(await textOf(page, `${finding} strong`)).toBe('error: invalid-filter');
    const report = rig.emulator.report({ device: device().serial, segments: 'current' });
    expect(report.findings.filter((f) => f.rule === 'invalid-filter')).toHaveLength(1);
  });

  it("reads the report again after the journal has the client's entries, not after the page's own", async () => {
    const page = await rig.tab();
    await recordFetches(page);
    // The page's timers run on Playwright's clock: the wait before a read again is jumped over, not slept.
    await page.clock.install();
    await openDashboard(page, rig.url);
    await waitForText(page, '#report-summary', /graded at|the journal is empty/);
    const reads = async (): Promise<number> => (await fetchedPaths(page)).filter((p) => p === '/_emu/report').length;
    const read = await reads();
    const seq = Math.max(0, ...rig.emulator.journal().map((e) => e.seq));
    // The feed brings the page's own entries only (its session's notifications), which the grader leaves out.
    await pageUntil(
      page,
      'a journal batch after the report was read',
      `seq => [...document.querySelectorAll('#journal-list li')].some((li) => Number(li.dataset.seq) > seq)`,
      seq,
    );
    const since = rig.emulator.journal().filter((e) => e.seq > seq);
    expect(since.length).toBeGreaterThan(0);
    expect(since.filter((e) => !isEmulatorClientEntry(e))).toEqual([]);
    await page.clock.fastForward('05');
    expect(await reads()).toBe(read);

    // A client's entries (its token, its session, its configure) do change the grade.
    await (await externalClient()).configure([{ topicFilter: 'tns1:Device/Trigger/Relay' }]);
    const configure = rig.emulator.journal({ kind: 'configure' }).find((e) => !isEmulatorClientEntry(e));
    if (!configure) throw new Error('the device journaled no configure of the client');
    await page.waitForSelector(`#journal-list li[data-seq="${configure.seq}"]`);
    await page.clock.fastForward('05');
    expect(await reads()).toBeGreaterThan(read);
  });

  it('pauses, plays and restarts the scenario', async () => {
    const page = await dashboard();
    await waitForText(page, '#scenario-state', /^playing$/);
    expect(await textOf(page, '#scenario-name')).toBe('fast');
    // By keyboard: Pause does not apply once paused, yet the keyboard stays on it (aria-disabled, not disabled).
    await page.focus('#scenario-pause');
    await page.keyboard.press('Enter');
    await waitForText(page, '#scenario-state', /^paused$/);
    expect(rig.emulator.scenarioStatus().state).toBe('paused');
    await page.waitForSelector('#scenario-pause[aria-disabled="true"]');
    expect(await page.isDisabled('#scenario-pause')).toBe(true);
    expect(await focusedId(page)).toBe('scenario-pause');
    await page.keyboard.press('Enter');
    expect(await textOf(page, '#scenario-error')).toBe('');
    const held = await textOf(page, '#scenario-position');
    const heldMs = rig.emulator.scenarioStatus().positionMs;
    // Two ticks of the page's clock (the uptime) later, the position has not moved, on the page or the device.
    const up = seconds(await textOf(page, '#identity-uptime'));
    await pageUntil(
      page,
      'two seconds of uptime',
      `up => { const t = document.getElementById('identity-uptime').textContent.split(':').map(Number); return t[0] * 3600 + t[1] * 60 + t[2] >= up + 2; }`,
      up,
    );
    expect(await textOf(page, '#scenario-position')).toBe(held);
    expect(rig.emulator.scenarioStatus().positionMs).toBe(heldMs);

    await page.click('#scenario-play');
    await waitForText(page, '#scenario-state', /^playing$/);
    expect(rig.emulator.scenarioStatus().state).toBe('playing');
    await pageUntil(
      page,
      'the position to move on',
      `p => document.getElementById('scenario-position').textContent !== p`,
      held,
    );

    await waitForText(page, '#scenario-position', /^00:00:(0[2-9]|[1-5]\d)$/);
    await page.click('#scenario-restart');
    await waitForText(page, '#scenario-position', /^00:00:0[01]$/);
    expect(rig.emulator.scenarioStatus().positionMs).toBeLessThan(2000);
    expect(await textOf(page, '#scenario-state')).toBe('playing');
  });

  it('fits 1280 x 800 and 390 x 844 without sideways scrolling, and Tab reaches the controls', async () => {
    const client = await externalClient();
    await client.configure([{ topicFilter: MOTION }]);
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const page = await dashboard(width, height);
      await waitForCount(page, MOTION_ROWS, 3);
      await waitForCount(page, '#session-rows tr[data-testid=session]', 2);
      await page.waitForSelector('#fault-list article[data-fault]');
      expect([width, await sidewaysOverflow(page)]).toEqual([width, 0]);
      // An error shown does not widen it either.
      await page.fill('#topic-filter', `${'tns1:VideoSource/MotionAlarm|'.repeat(4)}tns1:Bad((`);
      await page.click('#events-apply');
      await page.waitForSelector('#topic-filter-error pre.caret');
      expect([width, await sidewaysOverflow(page)]).toEqual([width, 0]);
    }
    const page = await dashboard();
    const wanted = [
      'topic-filter',
      'events-apply',
      'events-pause',
      'publish-submit',
      'fault-drop-on',
      'report-refresh',
    ];
    const reached = new Set<string>();
    for (let presses = 0; presses < 150 && wanted.some((id) => !reached.has(id)); presses++) {
      await page.keyboard.press('Tab');
      reached.add(await focusedId(page));
    }
    expect(wanted.filter((id) => !reached.has(id))).toEqual([]);
    // The first flag switch is a Tab stop too.
    expect([...reached].some((id) => id.startsWith('flag-'))).toBe(true);
  });
});

describeWithChromium('the device dashboard under auth none', () => {
  it("says a session opened without a login, in the journal and the sessions' user", async () => {
    const open = await startFastEmulator({ device: { port: 0, auth: 'none' } });
    rig.closeAfterEach(open);
    const page = await rig.tab();
    await openDashboard(page, open.devices[0].device.url);
    await until(() => open.sessions().length === 1, 'the dashboard session');
    const { id } = open.sessions()[0];
    expect(open.sessions()[0].user).toBeUndefined();
    const opened = '#journal-list li[data-kind="ws-open"]';
    await page.waitForSelector(opened);
    expect(await textOf(page, `${opened} .what`)).toMatch(new RegExp(`^session ${id} opened without a login from \\S`));
    const user = `#session-rows tr[data-session="${id}"] td.col-user`;
    await page.waitForSelector(user);
    expect(await textOf(page, user)).toBe('(no login)');
    expect(await page.getAttribute(user, 'title')).toMatch(/without authentication \(auth none\)/);
  });
});

describeWithChromium('the device dashboard without the control API', () => {
  it('loads, toggles flags and shows events; the control panels say the API is off', async () => {
    // Closed after the test's tabs (the rig closes them first).
    const bare = await startFastEmulator({ control: false });
    rig.closeAfterEach(bare);
    const bareDevice = bare.devices[0].device;
    const page = await rig.tab();
    await openDashboard(page, bareDevice.url);
    expect((await fetch(`${bareDevice.url}/_emu/health`)).status).toBe(404);
    // Why, said once at the top; each panel that needs the API says it is off, and shows nothing else.
    expect(await page.locator('#control-message').innerText()).toBe(
      'Control API: off (the emulator runs without its control API): the scenario, publishing, sessions, ' +
        'fault switches, journal and report need it. Flags and live events still work.',
    );
    const shown = await page.locator('body').innerText();
    expect(shown.split('the emulator runs without its control API')).toHaveLength(2);
    expect(shown).not.toMatch(/Waiting|Checking/);
    for (const panel of ['scenario', 'publish', 'sessions', 'faults', 'journal', 'report'])
      expect([panel, await textOf(page, `#${panel}-notice`)]).toEqual([panel, 'Off: needs the control API.']);
    for (const hidden of ['#publish-form', '#sessions-table', '#sessions-count', '#journal-list', '#report-refresh'])
      expect([hidden, await page.locator(hidden).isVisible()]).toEqual([hidden, false]);
    for (const off of ['#scenario-play', '#scenario-notice ~ dl'])
      expect([off, await page.locator(off).isVisible()]).toEqual([off, false]);
    // The device's own facts above the scenario stay.
    expect(await page.locator('#identity-serial').isVisible()).toBe(true);
    expect(await countOf(page, '#fault-list article')).toBe(0);

    await waitForCount(page, MOTION_ROWS, 2);
    const flags = bareDevice.flags();
    const flag = flags[0];
    const id = flagSelector(flag.name);
    await page.waitForSelector(id);
    await page.click(id);
    await page.waitForSelector(`${id}${flag.value ? ':not(:checked)' : ':checked'}:enabled`);
    const listed = await callFeatureFlags(bareDevice, { apiVersion: '1.0', method: 'listAll' });
    expect((listed.json as ListAllResponse).data.flags.find((f) => f.name === flag.name)?.value).toBe(!flag.value);
  });

  it('reads device.json again every minute only without it (with it, the journal says when the device rebooted)', async () => {
    const bare = await startFastEmulator({ control: false });
    rig.closeAfterEach(bare);
    /** A tab on `url` whose timers run on Playwright's clock, and that records what it fetches. */
    const clocked = async (url: string): Promise<Page> => {
      const page = await rig.tab();
      await recordFetches(page);
      await page.clock.install();
      await openDashboard(page, url);
      return page;
    };
    const reads = async (page: Page): Promise<number> =>
      (await fetchedPaths(page)).filter((p) => p === '/dashboard/device.json').length;
    const withApi = await clocked(rig.url);
    await waitForText(withApi, '#scenario-state', /^playing$/);
    const without = await clocked(bare.devices[0].device.url);
    await waitForText(without, '#scenario-notice', /^Off: needs the control API\.$/);
    // Once at the start; a minute later again only where the control API is off.
    expect([await reads(withApi), await reads(without)]).toEqual([1, 1]);
    await withApi.clock.fastForward('01:01');
    await without.clock.fastForward('01:01');
    expect([await reads(withApi), await reads(without)]).toEqual([1, 2]);
  });
});
