/**
 * The dashboard of a fleet in Chromium: two devices of one emulator, each on its own port
 * (another origin) with its own serial and realm. The first device's page lists both in the
 * device picker; choosing the second and pressing Open (choosing alone does not leave the page:
 * arrow keys on a closed select choose) opens that device's own dashboard, logged in with the
 * second device's account as the emulator gives it, and its picker has it chosen.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import type { EmulatorHandle } from '../../src';
import { describeInChromium, launchChromium } from '../helpers/browser';
import {
  inPage,
  MOTION_ROWS,
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

/** Skipped with a warning without Chromium, unless BWC_EMU_REQUIRE_TOOLS=1 (then they fail). */
const describeWithChromium = describeInChromium('the device dashboard');

beforeAll(async () => {
  browser = await launchChromium('the device dashboard');
  emulator = await startFastEmulator({ devices: 2 });
}, 30_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await emulator?.close();
});

describeWithChromium('the dashboard of a fleet in Chromium', () => {
  it('lists both devices in the picker; choosing the second and Open opens its dashboard', async () => {
    const [first, second] = emulator.devices.map((d) => d.access);
    expect(first.serial).not.toBe(second.serial);
    expect(first.realm).not.toBe(second.realm);
    // The browser answers each device's challenge (its own realm) with the account the emulator gives for it.
    expect([first.user, first.password]).toEqual([second.user, second.password]);
    const tab = await newTab(browser, 1280, 800, second.user, second.password);
    context = tab.context;
    const { page } = tab;
    await openDashboard(page, emulator.devices[0].device.url);

    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select');
    const options = await inPage<{ value: string; text: string; selected: boolean }[]>(
      page,
      '() => [...document.querySelectorAll("#fleet-select option")].map((o) => ({ value: o.value, text: o.textContent, selected: o.selected }))',
    );
    expect(options).toEqual([
      { value: first.urls.base, text: `${first.serial} (port ${new URL(first.urls.base).port})`, selected: true },
      { value: second.urls.base, text: `${second.serial} (port ${new URL(second.urls.base).port})`, selected: false },
    ]);
    expect(await textOf(page, '#fleet-picker label')).toBe('Device (2)');

    // Choosing does not navigate (the keyboard's arrows choose on a closed select): the page is still there.
    await page.focus('#fleet-select');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#fleet-select')).toBe(second.urls.base);
    expect(await inPage<string>(page, '() => location.origin')).toBe(new URL(first.urls.base).origin);
    await Promise.all([page.waitForURL(`${second.urls.base}/`), page.click('#fleet-open')]);
    await waitReady(page);
    expect(new URL(page.url()).origin).toBe(new URL(second.urls.base).origin);
    expect(await textOf(page, '#device-serial')).toBe(second.serial);
    expect(await textOf(page, '#identity-serial')).toBe(second.serial);
    expect(await textOf(page, '#identity-realm')).toBe(second.realm);
    // Its live view is on the second device: the session is there, not on the first.
    await waitForCount(page, MOTION_ROWS, 1);
    expect(emulator.sessions({ device: second.serial })).toHaveLength(1);
    expect(emulator.sessions({ device: first.serial })).toHaveLength(0);
    // Its picker lists the fleet too, with this device chosen.
    await page.waitForSelector('#fleet-picker:not([hidden]) #fleet-select');
    expect(await page.inputValue('#fleet-select')).toBe(second.urls.base);
  });
});
