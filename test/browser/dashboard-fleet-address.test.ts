/**
 * The device picker of a fleet in address mode, in Chromium (issue 33): each device is listed
 * by its serial and its address and port; a fleet of more than MAX_SHOWN_CHOICES devices gets a
 * search box and a bounded list, both answered by the control API a page at a time (the page
 * never asks for the whole list), and typing a device's address then Enter opens its dashboard.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import type { EmulatorHandle } from '../../src';
import { MAX_SHOWN_CHOICES } from '../../web/dashboard/fleet-choices';
import { describeInChromium, launchChromium } from '../helpers/browser';
import {
  inPage,
  newTab,
  openDashboard,
  pageUntil,
  startFastEmulator,
  textOf,
  waitReady,
} from '../helpers/dashboard-page';

let browser: Browser;
let emulator: EmulatorHandle;
let context: BrowserContext | undefined;
const DEVICES = MAX_SHOWN_CHOICES + 50;

/** Skipped with a warning without Chromium, unless BWC_EMU_REQUIRE_TOOLS=1 (then they fail). */
const describeWithChromium = describeInChromium('the device dashboard');

beforeAll(async () => {
  browser = await launchChromium('the device dashboard');
  emulator = await startFastEmulator({ devices: DEVICES, addressRange: '127.8.0.1' });
}, 30_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await emulator?.close();
});

/** The picker's options as the page shows them. */
function pickerOptions(page: Parameters<typeof inPage>[0]) {
  return inPage<{ value: string; text: string; selected: boolean }[]>(
    page,
    '() => [...document.querySelectorAll("#fleet-select option")].map((o) => ({ value: o.value, text: o.textContent, selected: o.selected }))',
  );
}

describeWithChromium('the dashboard of a fleet in address mode in Chromium', () => {
  it('lists each device at its address, bounded with a search box; typing an address and Enter opens it', async () => {
    const first = emulator.devices[0].access;
    const last = emulator.devices[DEVICES - 1].access;
    const port = new URL(first.urls.base).port;
    expect(new URL(last.urls.base).host).toBe(`127.8.0.250:${port}`);
    const tab = await newTab(browser, 1280, 800, first.user, first.password);
    context = tab.context;
    const { page } = tab;
    await openDashboard(page, first.urls.base);

    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select');
    expect(await textOf(page, '#fleet-picker label')).toBe(`Device (${DEVICES})`);
    const options = await pickerOptions(page);
    expect(options).toHaveLength(MAX_SHOWN_CHOICES);
    expect(options[0]).toEqual({ value: first.urls.base, text: `${first.serial} (127.8.0.1:${port})`, selected: true });
    expect(options[1].text).toBe(`ACCC8E000002 (127.8.0.2:${port})`);
    expect(await textOf(page, '#fleet-shown')).toBe(`${MAX_SHOWN_CHOICES} of ${DEVICES} shown: type to narrow`);

    // The control API answers the search as typing pauses.
    await page.fill('#fleet-search', '127.8.0.250');
    await pageUntil(page, 'the one match', '() => document.querySelectorAll("#fleet-select option").length === 1');
    expect(await pickerOptions(page)).toEqual([
      { value: last.urls.base, text: `${last.serial} (127.8.0.250:${port})`, selected: true },
    ]);
    expect(await textOf(page, '#fleet-shown')).toBe('');
    await Promise.all([page.waitForURL(`${last.urls.base}/`), page.press('#fleet-search', 'Enter')]);
    await waitReady(page);
    expect(new URL(page.url()).host).toBe(`127.8.0.250:${port}`);
    expect(await textOf(page, '#device-serial')).toBe(last.serial);
    // Its picker has it chosen, first of the list (the list's first 200 do not reach it).
    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select');
    expect(await page.inputValue('#fleet-select')).toBe(last.urls.base);
  });

  it('never asks for the whole list; Enter right after typing opens the match once it is known', async () => {
    const first = emulator.devices[0].access;
    const wanted = emulator.devices[DEVICES - 2].access;
    const tab = await newTab(browser, 1280, 800, first.user, first.password);
    await context?.close();
    context = tab.context;
    const { page } = tab;
    const asked: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/_emu/devices') asked.push(url);
    });
    await openDashboard(page, first.urls.base);
    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-search');

    await page.type('#fleet-search', wanted.serial.toLowerCase());
    await Promise.all([page.waitForURL(`${wanted.urls.base}/`), page.press('#fleet-search', 'Enter')]);
    await waitReady(page);
    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select');
    expect(await page.inputValue('#fleet-select')).toBe(wanted.urls.base);

    const limits = asked.map((url) => url.searchParams.get('limit'));
    expect(limits.length).toBeGreaterThanOrEqual(4); // first page, search; first page, this device
    expect(limits.every((limit) => limit === String(MAX_SHOWN_CHOICES))).toBe(true);
    expect(asked.map((url) => url.searchParams.get('q'))).toContain(wanted.serial.toLowerCase());
  });
});
