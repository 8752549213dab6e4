/**
 * The device dashboard in Chromium when the control API is not simply there: one that asks for
 * a token (a wrong one said so, the right one lets every panel work, and what was typed in a
 * fault switch stays while the API goes and comes back), one that cannot be reached and then
 * answers 503 (checked again until it answers), a feed that answers 503 (said with its body,
 * and connected again), a feed that sends an event that is not JSON and one a panel fails on
 * (counted, said, and the feed goes on), a feed that left entries out (device.json read again,
 * a reboot may have been among them), and event stream frames that are not JSON or an event
 * without a topic (counted, and the events after them listed). The broken answers are made by
 * Playwright's routing.
 */
import { describeInChromium } from '../helpers/browser';
import { until } from '../helpers/until';
import {
  countOf,
  dashboardRig,
  MOTION_ROWS,
  openDashboard,
  pageUntil,
  recordedTexts,
  recordTexts,
  startFastEmulator,
  textOf,
  waitForCount,
  waitForText,
} from '../helpers/dashboard-page';

const TOKEN = 'open-sesame';
/** Longer than the page's first two re-checks (1 s, then 2 s) of a control API that did not answer. */
const RECHECK_WAIT_MS = 8000;

const describeWithChromium = describeInChromium('the device dashboard');
/** The rig's emulator for the tests that break the answers in the browser; one of its own for the token. */
const rig = dashboardRig();

describeWithChromium('the device dashboard in Chromium, its control API', () => {
  it('asks for the token, says a wrong one was refused, and works with the right one', async () => {
    // Closed after the test's tabs (the rig closes them first).
    const guarded = await startFastEmulator({ control: { token: TOKEN } });
    rig.closeAfterEach(guarded);
    const page = await rig.tab();
    await openDashboard(page, guarded.devices[0].device.url);
    await page.waitForSelector('#control-token-form:not([hidden])');
    expect(await textOf(page, '#scenario-notice')).toMatch(/^The control API needs its token \(401: /);
    expect(await textOf(page, '#control-message')).toMatch(/^Control API: The control API needs its token/);

    await page.fill('#control-token', 'not the token');
    await page.click('#control-token-apply');
    await waitForText(page, '#control-token-result', /^The control API refused this token \(401: .+\)\.$/);
    expect(await page.getAttribute('#control-token', 'aria-invalid')).toBe('true');

    await page.fill('#control-token', TOKEN);
    await page.click('#control-token-apply');
    await waitForText(page, '#control-token-result', /^Token accepted\.$/);
    expect(await page.getAttribute('#control-token', 'aria-invalid')).toBeNull();
    await waitForText(page, '#scenario-state', /^playing$/);
    await page.waitForSelector('#fault-list article[data-fault]');
    await waitForCount(page, '#session-rows tr[data-testid=session]', 1);
    expect(await page.locator('#control-message').isHidden()).toBe(true);

    // What is typed in a fault switch stays while the API goes (token forgotten) and comes back.
    await page.click('#fault-drop-details summary');
    await page.fill('#fault-drop-param-reason', 'typed by the test');
    await page.click('#control-token-forget');
    await waitForText(page, '#control-token-result', /^Token forgotten\.$/);
    await waitForText(page, '#faults-notice', /needs its token/);
    await page.fill('#control-token', TOKEN);
    await page.click('#control-token-apply');
    await waitForText(page, '#control-token-result', /^Token accepted\.$/);
    await page.waitForSelector('#faults-notice', { state: 'hidden' });
    expect(await page.inputValue('#fault-drop-param-reason')).toBe('typed by the test');
    expect(await page.getAttribute('#fault-drop-details', 'open')).not.toBeNull();
  });

  it('checks again while the control API cannot be reached or answers 503, and goes on once it answers', async () => {
    const page = await rig.tab();
    let checks = 0;
    await page.route(
      (u) => u.pathname === '/_emu/health',
      async (route) => {
        checks++;
        if (checks === 1) return route.abort('connectionrefused');
        if (checks === 2)
          return route.fulfill({ status: 503, contentType: 'application/json', body: '{"status":"closing"}' });
        return route.continue();
      },
    );
    await openDashboard(page, rig.url);
    expect(await textOf(page, '#control-message')).toMatch(
      /^Control API: The control API cannot be reached \(.+\); trying again\.$/,
    );
    await recordTexts(page, '#control-message');
    await waitForText(page, '#scenario-state', /^playing$/, RECHECK_WAIT_MS);
    expect(await page.locator('#control-message').isHidden()).toBe(true);
    expect(await recordedTexts(page, '#control-message')).toContainEqual(
      'Control API: The control API is not answering as it should (/health answered HTTP 503: {"status":"closing"}); trying again.',
    );
    expect(checks).toBe(3);
  });

  it('goes on past a feed event that is not JSON and one a panel fails on, and says so', async () => {
    const page = await rig.tab();
    // CRLF line ends, as a proxy might send them; the events in order: not JSON, a panel fails, fine.
    const fake = [
      'event: sessions',
      'data: {"sessions":',
      '',
      'event: faults',
      'data: {"faults":7}',
      '',
      'event: scenario',
      'data: {"name":"from the test","state":"paused","positionMs":1000,"speed":1,"topics":[]}',
      '',
      'event: journal',
      'id: 1',
      'data: {"entries":[],"skipped":0}',
      '',
      '',
    ].join('\r\n');
    await page.route(
      (u) => u.pathname === '/_emu/feed',
      (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: fake }),
      { times: 1 },
    );
    await openDashboard(page, rig.url);
    // From its start: the fake feed's scenario is shown until the real feed's, a second later.
    await recordTexts(page, '#scenario-name');
    await waitForText(page, '#feed-status', /; 1 event ignored: not JSON$/);
    await waitForText(
      page,
      '#page-notice',
      /^A panel failed on the live feed's faults event \(.+\); the rest goes on\.$/,
    );
    // The real feed next (the fake one ended): the scenario the test sent was shown before it.
    await waitForText(page, '#scenario-name', /^fast$/, RECHECK_WAIT_MS);
    expect(await recordedTexts(page, '#scenario-name')).toContain('from the test');
    await waitForCount(page, '#session-rows tr[data-testid=session]', 1);
  });

  it('says what the feed answered when it failed, and connects again', async () => {
    const page = await rig.tab();
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (u) => u.pathname === '/_emu/feed',
      async (route) => {
        await released;
        await route.fulfill({ status: 503, contentType: 'application/json', body: '{"status":"closing"}' });
      },
      { times: 1 },
    );
    await openDashboard(page, rig.url);
    // The failed answer is held until every text the feed's status shows is recorded.
    await recordTexts(page, '#feed-status');
    release();
    await waitForText(page, '#feed-status', /^Live feed: on$/, RECHECK_WAIT_MS);
    expect(await recordedTexts(page, '#feed-status')).toContain(
      'Live feed: the feed answered HTTP 503: {"status":"closing"}; again in 1 s',
    );
  });

  it('reads device.json again when the feed left entries out (one of them may have been a reboot)', async () => {
    const page = await rig.tab();
    let infoReads = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/dashboard/device.json') infoReads++;
    });
    // Every feed the page opens is a fake one: the first says it left 5 entries out, the later ones none.
    let feeds = 0;
    const batch = (skipped: number): string =>
      `event: journal\r\nid: 1\r\ndata: {"entries":[],"skipped":${skipped}}\r\n\r\n`;
    await page.route(
      (u) => u.pathname === '/_emu/feed',
      (route) => route.fulfill({ status: 200, contentType: 'text/event-stream', body: batch(feeds++ === 0 ? 5 : 0) }),
    );
    await openDashboard(page, rig.url);
    await until(() => feeds >= 2 && infoReads >= 2, 'a second feed and a second device.json read');
    expect(infoReads).toBe(2);
  });

  it('counts event stream frames that are not JSON or an event without a topic, and the events go on', async () => {
    const page = await rig.tab();
    await page.routeWebSocket(/./, (ws) => {
      const server = ws.connectToServer();
      let first = true;
      ws.onMessage((message) => {
        server.send(message);
        if (first) {
          ws.send('this is no JSON');
          // Events the page cannot show: no topic, or one that is not text.
          ws.send('{"method":"events:notify","params":{"notification":{}}}');
          ws.send('{"method":"events:notify","params":{"notification":{"topic":7,"message":{"data":{"a":"1"}}}}}');
        }
        first = false;
      });
    });
    await openDashboard(page, rig.url);
    await waitForText(page, '#events-problems', /^3 messages from the device ignored: malformed \(.+\)$/);
    // The events after them are listed, and none waits for a frame.
    await waitForCount(page, MOTION_ROWS, (await countOf(page, MOTION_ROWS)) + 2);
    expect(await countOf(page, '#event-list li.event:not([data-topic]), #event-list li.event[data-topic="7"]')).toBe(0);
    await pageUntil(
      page,
      'the list not busy',
      `() => !document.getElementById('event-list').hasAttribute('aria-busy')`,
    );
  });
});
