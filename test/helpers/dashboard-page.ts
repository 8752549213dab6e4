/**
 * The device dashboard in a browser tab, for the browser tests and the screenshots: a fast
 * scenario to watch, a logged-in tab waiting until the page has started, and waits on the
 * page's DOM (page code as text: the tests are typed without the DOM).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type EmulatorHandle, type EmulatorOptions, loadScenario, type LoadedScenario, startEmulator } from '../../src';
import { launchChromium } from './browser';

/** The topic the fast scenario emits, every 250 ms. */
export const MOTION = 'tns1:VideoSource/MotionAlarm';

/** How long a test waits for the page before failing (Playwright's waits too: see {@link newTab}). */
export const PAGE_WAIT_MS = 5000;

/** The selector of the live event list's rows of `topic`. */
export function eventRows(topic: string): string {
  return `#event-list li.event[data-topic="${topic}"]`;
}

/** The rows of the fast scenario's motion alarms. */
export const MOTION_ROWS = eventRows(MOTION);

const FAST_YAML = [
  'name: fast',
  'description: A motion alarm every 250 ms, for watching the dashboard.',
  'states:',
  '  - { topic: tns1:Device/tnsvendor:IO/Port, source: { port: "1" }, data: { state: "0" } }',
  'timeline:',
  `  - { every: 250ms, emit: { topic: ${MOTION}, source: { VideoSourceConfigurationToken: "1" }, data: { State: "1" } } }`,
  '',
].join('\n');

/** The fast scenario, loaded. */
export function fastScenario(): LoadedScenario {
  const loaded = loadScenario(FAST_YAML, 'fast.yaml');
  if (!loaded.ok) throw new Error(loaded.error.message);
  return { scenario: loaded.value };
}

/** An emulator on free ports playing the fast scenario (`options` on top). */
export function startFastEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  return startEmulator({ scenarios: [fastScenario()], device: { port: 0 }, ...options });
}

/**
 * A tab of the given size logged in as `username` (root / pass by default), on a fresh context
 * whose waits (Playwright's `waitForSelector`, `click`...) give up after {@link PAGE_WAIT_MS}.
 */
export async function newTab(
  browser: Browser,
  width = 1280,
  height = 800,
  username = 'root',
  password = 'pass',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height }, httpCredentials: { username, password } });
  context.setDefaultTimeout(PAGE_WAIT_MS);
  return { context, page: await context.newPage() };
}

/** A test file's browser and device: see {@link dashboardRig}. */
export interface DashboardRig {
  readonly browser: Browser;
  readonly emulator: EmulatorHandle;
  /** The emulator's (first) device's base URL. */
  readonly url: string;
  /** A logged-in tab of the given size on a fresh context, not opened yet; closed after the test. */
  readonly tab: (width?: number, height?: number) => Promise<Page>;
  /** {@link tab}, opened on the device's dashboard and started. */
  readonly dashboard: (width?: number, height?: number) => Promise<Page>;
  /** {@link dashboard}, once it lists a motion alarm of the fast scenario (its stream session works). */
  readonly liveDashboard: (width?: number, height?: number) => Promise<Page>;
  /** Closes `thing` (a test's own stream client) after the test, after its tabs, before the reset. */
  readonly closeAfterEach: (thing: { close(): unknown }) => void;
}

/**
 * One Chromium and one emulator playing the fast scenario for a test file: started before its
 * tests, closed after them. After each test its tabs go first (the page's session and feed),
 * then what it asked to close, then the emulator is reset. Call it at the file's top level.
 */
export function dashboardRig(): DashboardRig {
  let browser: Browser | undefined;
  let emulator: EmulatorHandle | undefined;
  const contexts: BrowserContext[] = [];
  const others: { close(): unknown }[] = [];
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the dashboard rig is used before its beforeAll ran');
    return value;
  };
  beforeAll(async () => {
    browser = await launchChromium('the device dashboard');
    emulator = await startFastEmulator();
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    await Promise.all(others.splice(0).map((c) => c.close()));
    await emulator?.reset();
  });
  const rig: DashboardRig = {
    get browser() {
      return started(browser);
    },
    get emulator() {
      return started(emulator);
    },
    get url() {
      return started(emulator).devices[0].device.url;
    },
    tab: async (width, height) => {
      const { context, page } = await newTab(rig.browser, width, height);
      contexts.push(context);
      return page;
    },
    dashboard: async (width, height) => {
      const page = await rig.tab(width, height);
      await openDashboard(page, rig.url);
      return page;
    },
    liveDashboard: async (width, height) => {
      const page = await rig.dashboard(width, height);
      await waitForCount(page, MOTION_ROWS, 1);
      return page;
    },
    closeAfterEach: (thing) => {
      others.push(thing);
    },
  };
  return rig;
}

/** Opens the dashboard at `url` and waits until it has started (`body[data-ready]`); throws the page's error. */
export async function openDashboard(page: Page, url: string): Promise<void> {
  const answer = await page.goto(`${url}/`);
  if (answer?.status() !== 200) throw new Error(`${url}/ answered ${answer?.status()}`);
  await waitReady(page);
}

/** Waits until the page has started, or fails with what #page-error says. */
export async function waitReady(page: Page): Promise<void> {
  await pageUntil(
    page,
    'the page to start',
    `() => document.body.dataset.ready === 'true' || !document.getElementById('page-error').hidden`,
  );
  const problem = page.locator('#page-error');
  if (await problem.isVisible()) throw new Error(await problem.innerText());
}

/**
 * Runs `fn`, the source of a function of one argument, in the page with `arg` until it returns
 * something truthy (checked every 20 ms and on every change of the DOM); resolves with that.
 * Fails naming `what` after `timeoutMs`. (Not `page.waitForFunction`: it compiles the
 * predicate with `new Function`, which the dashboard's CSP forbids, rightly.)
 */
export async function pageUntil<T>(
  page: Page,
  what: string,
  fn: string,
  arg: unknown = null,
  timeoutMs = PAGE_WAIT_MS,
): Promise<T> {
  const waiter = `new Promise((resolve, reject) => {
    const fn = (${fn});
    const arg = ${JSON.stringify(arg)};
    const deadline = performance.now() + ${timeoutMs};
    let timer;
    const observer = new MutationObserver(() => check());
    const done = (settle, value) => {
      clearTimeout(timer);
      observer.disconnect();
      settle(value);
    };
    const check = () => {
      let value;
      try {
        value = fn(arg);
      } catch (err) {
        return done(reject, err);
      }
      if (value) return done(resolve, value);
      if (performance.now() > deadline) return done(reject, new Error('timed out after ${timeoutMs} ms'));
      clearTimeout(timer);
      timer = setTimeout(check, 20);
    };
    observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
    check();
  })`;
  try {
    return await page.evaluate<T>(waiter);
  } catch (err) {
    throw new Error(`waiting for ${what}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

/**
 * Records the path of each `fetch` the page makes from its start, as it makes it: one a timer of
 * the page starts is recorded before the timer returns (so once `page.clock` has run the timer,
 * a request not recorded was not made). Call before the page is opened; read with {@link fetchedPaths}.
 */
export async function recordFetches(page: Page): Promise<void> {
  await page.addInitScript(`{
    const fetch = window.fetch;
    const paths = (window.__fetched = []);
    window.fetch = function (input, init) {
      paths.push(new URL(input instanceof Request ? input.url : String(input), location.href).pathname);
      return fetch.call(this, input, init);
    };
  }`);
}

/** The paths the page has fetched since it was opened, oldest first (see {@link recordFetches}). */
export function fetchedPaths(page: Page): Promise<string[]> {
  return inPage<string[]>(page, '() => window.__fetched');
}

/** Runs `fn` (the source of a function of one argument) in the page with `arg`; resolves with its answer. */
export function inPage<T>(page: Page, fn: string, arg: unknown = null): Promise<T> {
  return page.evaluate<T>(`(${fn})(${JSON.stringify(arg)})`);
}

/** The text of the element matching `selector`, as the DOM holds it ('' when there is none). */
export function textOf(page: Page, selector: string): Promise<string> {
  return inPage<string>(page, 's => document.querySelector(s)?.textContent ?? ""', selector);
}

/** Waits until the text of `selector` matches `pattern`; resolves with the text. */
export function waitForText(page: Page, selector: string, pattern: RegExp, timeoutMs = PAGE_WAIT_MS): Promise<string> {
  return pageUntil<string>(
    page,
    `${selector} to read ${String(pattern)}`,
    `([s, source, flags]) => {
      const text = document.querySelector(s)?.textContent ?? '';
      return new RegExp(source, flags).test(text) && text;
    }`,
    [selector, pattern.source, pattern.flags],
    timeoutMs,
  ).catch(async (err: unknown) => {
    throw new Error(`${(err as Error).message}; it reads: "${await textOf(page, selector)}"`);
  });
}

/** The selector of flag `name`'s switch (the page's id rule: anything but `A-Za-z0-9_-` becomes `_`). */
export function flagSelector(name: string): string {
  return `#flag-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** The id of the element that has the keyboard's focus ('' for none, or the body). */
export function focusedId(page: Page): Promise<string> {
  return inPage<string>(page, '() => document.activeElement?.id ?? ""');
}

/** How many elements match `selector`. */
export function countOf(page: Page, selector: string): Promise<number> {
  return inPage<number>(page, 's => document.querySelectorAll(s).length', selector);
}

/** Waits until at least `n` elements match `selector`; resolves with how many do. */
export function waitForCount(page: Page, selector: string, n: number, timeoutMs = PAGE_WAIT_MS): Promise<number> {
  return pageUntil<number>(
    page,
    `${n} of ${selector}`,
    '([s, n]) => { const c = document.querySelectorAll(s).length; return c >= n && c; }',
    [selector, n],
    timeoutMs,
  );
}

/**
 * Records every text `selector` shows from now on (a MutationObserver in the page), so a
 * state that lasts a moment is not missed; read them with {@link recordedTexts}.
 */
export async function recordTexts(page: Page, selector: string): Promise<void> {
  await inPage(
    page,
    `s => {
      const el = document.querySelector(s);
      const seen = (window.__recorded ??= {})[s] = [el.textContent];
      new MutationObserver(() => seen.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
    }`,
    selector,
  );
}

/** The texts recorded for `selector` since {@link recordTexts}. */
export function recordedTexts(page: Page, selector: string): Promise<string[]> {
  return inPage<string[]>(page, 's => window.__recorded[s]', selector);
}
