/**
 * The dashboard of a fleet in Chromium: two devices of one emulator, each on its own port
 * (another origin) with its own serial and realm. The first device's page lists both in the
 * device picker; choosing the second opens that device's own dashboard, logged in with the
 * second device's account as the emulator gives it, and its picker has it chosen.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import type { EmulatorHandle } from '../../src';
import { launchChromium } from '../helpers/browser';
import {
  inPage,
  MOTION,
  newTab,
  openDashboard,
  startFastEmulator,
  textOf,
  waitForCount,
  waitReady,
} from '../helpers/dashboard-page';

let browser: Browser;
let emulator: EmulatorHandle;
let context: BrowserContext | undefined;

beforeAll(async () => {
  browser = await launchChromium('the device dashboard');
  emulator = await startFastEmulator({ devices: 2 });
}, 30_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await emulator?.close();
});

describe('the dashboard of a fleet in Chromium', () => {
  it('lists both devices in the picker; choosing the second opens its dashboard', async () => {
    const [first, second] = emulator.devices.map((d) => d.access);
    expect(first.serial).not.toBe(second.serial);
    expect(first.realm).not.toBe(second.realm);
    // The browser answers each device's challenge (its own realm) with the account the emulator gives for it.
    expect([first.user, first.password]).toEqual([second.user, second.password]);
    const tab = await newTab(browser, 1280, 800, second.user, second.password);
    context = tab.context;
    const { page } = tab;
    await openDashboard(page, emulator.devices[0].device.url);

    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select', { timeout: 5000 });
    const options = await inPage<{ value: string; text: string; selected: boolean }[]>(
      page,
      '() => [...document.querySelectorAll("#fleet-select option")].map((o) => ({ value: o.value, text: o.textContent, selected: o.selected }))',
    );
    expect(options).toEqual([
      { value: first.urls.base, text: `${first.serial} (port ${new URL(first.urls.base).port})`, selected: true },
      { value: second.urls.base, text: `${second.serial} (port ${new URL(second.urls.base).port})`, selected: false },
    ]);
    expect(await textOf(page, '#fleet-picker label')).toBe('Device (2)');

    await Promise.all([page.waitForURL(`${second.urls.base}/`), page.selectOption('#fleet-select', second.urls.base)]);
    await waitReady(page);
    expect(new URL(page.url()).origin).toBe(new URL(second.urls.base).origin);
    expect(await textOf(page, '#device-serial')).toBe(second.serial);
    expect(await textOf(page, '#identity-serial')).toBe(second.serial);
    expect(await textOf(page, '#identity-realm')).toBe(second.realm);
    // Its live view is on the second device: the session is there, not on the first.
    await waitForCount(page, `#event-list li.event[data-topic="${MOTION}"]`, 1);
    expect(emulator.sessions({ device: second.serial })).toHaveLength(1);
    expect(emulator.sessions({ device: first.serial })).toHaveLength(0);
    // Its picker lists the fleet too, with this device chosen.
    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select', { timeout: 5000 });
    expect(await page.inputValue('#fleet-select')).toBe(second.urls.base);
  });
});
