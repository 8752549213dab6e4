/**
 * The dashboard's screenshots in docs/img (referenced from the README). `npm run screenshots`
 * (UPDATE_SCREENSHOTS=1) takes them in Chromium from an emulator playing the fast scenario,
 * with a client of the test's own connected; without it this only checks that each is there,
 * a PNG of the size it was taken at, and small.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { EmulatorHandle } from '../../src';
import { launchChromium } from '../helpers/browser';
import { MOTION, newTab, openDashboard, startFastEmulator, waitForCount, waitForText } from '../helpers/dashboard-page';
import { fetchToken, openWithToken, type StreamClient } from '../helpers/event-stream-client';

const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
const DIR = join(__dirname, '..', '..', 'docs', 'img');
/** Each screenshot's budget: they live in the repository and in the package (the README shows them). */
const MAX_BYTES = 300 * 1024;

/** Each screenshot: its file, the viewport it is taken in. */
const SHOTS = {
  top: { file: 'dashboard-top.png', width: 1280, height: 800 },
  overview: { file: 'dashboard-overview.png', width: 1280, height: 800 },
  faults: { file: 'dashboard-faults.png', width: 1280, height: 800 },
  eventsError: { file: 'dashboard-events-error.png', width: 1280, height: 800 },
  narrow: { file: 'dashboard-narrow.png', width: 390, height: 844 },
} as const;

/** Width and height from a PNG's IHDR chunk; throws when `png` is not a PNG. */
function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a' || png.subarray(12, 16).toString() !== 'IHDR')
    throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

(UPDATE ? describe.skip : describe)('the dashboard screenshots in docs/img', () => {
  for (const [name, shot] of Object.entries(SHOTS))
    it(`${shot.file} is a PNG of ${shot.width} x ${shot.height} under ${MAX_BYTES / 1024} KB`, () => {
      let png: Buffer;
      try {
        png = readFileSync(join(DIR, shot.file));
      } catch {
        throw new Error(`docs/img/${shot.file} (${name}) is missing: run npm run screenshots`);
      }
      expect(pngSize(png)).toEqual({ width: shot.width, height: shot.height });
      expect(png.length).toBeLessThan(MAX_BYTES);
    });
});

(UPDATE ? describe : describe.skip)('taking the dashboard screenshots (UPDATE_SCREENSHOTS=1)', () => {
  let browser: Browser;
  let emulator: EmulatorHandle;
  let client: StreamClient | undefined;
  let context: BrowserContext | undefined;

  beforeAll(async () => {
    browser = await launchChromium('the device dashboard');
    emulator = await startFastEmulator();
    const device = emulator.devices[0].device;
    client = await openWithToken(device, await fetchToken(device));
    await client.configure([{ topicFilter: MOTION }]);
    mkdirSync(DIR, { recursive: true });
  }, 30_000);

  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await emulator?.close();
  });

  /** A started dashboard of `width` x `height` with events shown and both sessions listed. */
  async function dashboard(width: number, height: number): Promise<Page> {
    const tab = await newTab(browser, width, height);
    context = tab.context;
    const { page } = tab;
    await openDashboard(page, emulator.devices[0].device.url);
    await waitForCount(page, '#event-list li.event', 6);
    await waitForCount(page, '#session-rows tr[data-testid=session]', 2);
    await waitForText(page, '#events-rate', /^(?!0\.0 )/);
    return page;
  }

  /** Saves the viewport with panel `id` scrolled to its top. */
  async function save(page: Page, shot: (typeof SHOTS)[keyof typeof SHOTS], id?: string): Promise<void> {
    if (id) await page.evaluate(`document.getElementById(${JSON.stringify(id)}).scrollIntoView({ block: 'start' })`);
    const png = await page.screenshot({ type: 'png' });
    writeFileSync(join(DIR, shot.file), png);
    expect(png.length).toBeLessThan(MAX_BYTES);
  }

  it('takes the top of the page: the device, its scenario and flags, the live feed', async () => {
    await save(await dashboard(1280, 800), SHOTS.top);
  });

  it('takes the overview: live events with their rate, publishing, both sessions', async () => {
    await save(await dashboard(1280, 800), SHOTS.overview, 'events-panel');
  });

  it('takes the fault switches, one on, one open', async () => {
    const page = await dashboard(1280, 800);
    await page.click('#fault-stall-on');
    await page.waitForSelector('#fault-stall-state[data-on="true"]');
    await page.click('#fault-drop-details summary');
    await save(page, SHOTS.faults, 'faults-panel');
    await page.click('#fault-stall-off');
    await page.waitForSelector('#fault-stall-state[data-on="false"]');
  });

  it('takes an invalid filter shown at its column', async () => {
    const page = await dashboard(1280, 800);
    await page.fill('#topic-filter', 'tns1:VideoSource//Motion');
    await page.click('#events-apply');
    await page.waitForSelector('#topic-filter-error pre.caret');
    await save(page, SHOTS.eventsError, 'events-panel');
  });

  it('takes the phone width: the top of the page', async () => {
    await save(await dashboard(390, 844), SHOTS.narrow);
  });
});
