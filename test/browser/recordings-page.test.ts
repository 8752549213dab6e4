/**
 * The destination's recordings pages in a real browser: Debian's Chromium, headless,
 * driven by playwright-core, logging in with the page's HTTP credentials. Checks what a
 * person sees: the statuses (complete, transferring, stalled on the fake clock, not
 * transferred), rejected content, newest first, paging, the detail page and a download,
 * and that no page scrolls sideways on a desktop (1280 x 800) or a phone (390 x 844).
 *
 * Without Chromium the file is skipped with a warning saying how to install it, as the
 * interop tests are without their tools; with BWC_EMU_REQUIRE_TOOLS=1 (CI, which runs
 * `apt-get install chromium`) it fails instead. One browser for the whole file.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describeInChromium, launchChromium, sidewaysOverflow } from '../helpers/browser';
import { login } from '../helpers/destinations';
import { record, refuseClip, refusedRecording, register, rejectedContent } from '../helpers/destination-recordings';
import { type DestinationHandle, ManualClock, startDestination } from '../../src';

const NOW = Date.UTC(2024, 5, 1, 12, 0, 0);
const LONG_USER = 'officer_with_a_rather_long_identifier_0001';
const SERIAL = 'AABBCCDD1234';
const FILLERS = 48;

let browser: Browser;
let destination: DestinationHandle;
const names: Record<'complete' | 'transferring' | 'stalled' | 'refused' | 'badClip' | 'rejected', string> = {
  complete: '',
  transferring: '',
  stalled: '',
  refused: '',
  badClip: '',
  rejected: '',
};

/** Skipped with a warning without Chromium, unless BWC_EMU_REQUIRE_TOOLS=1 (then they fail). */
const describeWithChromium = describeInChromium('the recordings page');

beforeAll(async () => {
  browser = await launchChromium('the recordings page');
  const clock = new ManualClock(NOW);
  destination = await startDestination({ port: 0, clock, stalledAfterMs: 60_000 });
  const session = await login(destination);
  await register(session, LONG_USER, SERIAL);
  for (let i = 0; i < FILLERS; i++)
    await record(session, LONG_USER, SERIAL, NOW - 24 * 3600_000 - i * 60_000, { clips: 0, complete: true });
  names.stalled = await record(session, LONG_USER, SERIAL, NOW - 50 * 60_000, {
    clips: 1,
    complete: false,
    metadata: { Triggeronlocation: 'x'.repeat(200) },
  });
  clock.advance(2 * 60_000);
  names.complete = await record(session, LONG_USER, SERIAL, NOW - 40 * 60_000, {
    clips: 3,
    complete: true,
    clipBytes: 1_500_000,
  });
  names.badClip = await record(session, LONG_USER, SERIAL, NOW - 30 * 60_000, { clips: 1, complete: false });
  await refuseClip(session, names.badClip);
  names.refused = await refusedRecording(
    session,
    'someone_nobody_registered_with_a_long_name',
    SERIAL,
    NOW - 20 * 60_000,
  );
  names.transferring = await record(session, LONG_USER, SERIAL, NOW - 10 * 60_000, { clips: 1, complete: false });
  names.rejected = await rejectedContent(session, '20240601T113000Z', '6f1c2b9e-4d1a-4c55-9a57-0d4e8f1b2c3d');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await destination?.close();
});

/** A logged-in browser tab of the given size. */
async function tab(width: number, height: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height },
    httpCredentials: { username: 'bws', password: 'secret' },
  });
  return { context, page: await context.newPage() };
}

/** Containers of a table's rows, top to bottom. */
async function rows(page: Page, table: 'recordings' | 'rejected'): Promise<string[]> {
  const trs = await page.locator(`table.${table} tbody tr`).all();
  return Promise.all(trs.map(async (tr) => (await tr.getAttribute('data-container')) ?? ''));
}

/** The text of a recording's row, as shown. */
function rowText(page: Page, container: string): Promise<string> {
  return page.locator(`tr[data-container="${container}"]`).innerText();
}

describeWithChromium('recordings page in Chromium', () => {
  it('shows each status, the rejected content, newest first', async () => {
    const { context, page } = await tab(1280, 800);
    try {
      expect((await page.goto(`${destination.url}/`))?.status()).toBe(200);
      expect(await page.locator('h1').innerText()).toBe('Recordings of account AUTH_bws');
      const listed = await rows(page, 'recordings');
      expect(listed.slice(0, 5)).toEqual([
        names.transferring,
        names.refused,
        names.badClip,
        names.complete,
        names.stalled,
      ]);
      expect(listed).toHaveLength(50);
      const status = (container: string) =>
        page.locator(`tr[data-container="${container}"]`).getAttribute('data-status');
      expect(await status(names.complete)).toBe('complete');
      expect(await status(names.transferring)).toBe('transferring');
      expect(await status(names.stalled)).toBe('stalled');
      expect(await status(names.refused)).toBe('not transferred');
      expect(await status(names.badClip)).toBe('not transferred');
      expect(await rowText(page, names.stalled)).toMatch(/stalled\s+last activity 2 min ago/);
      expect(await rowText(page, names.transferring)).toMatch(/transferring\s+last activity just now/);
      expect(await rowText(page, names.refused)).toMatch(/not registered/);
      expect(await rowText(page, names.badClip)).toMatch(/has no duration/);
      expect(await rowText(page, names.complete)).toMatch(/4\.5 MB/);
      expect(await rowText(page, names.complete)).toMatch(/2024-06-01 11:20:00 UTC\s+42 min ago/);
      expect(await rows(page, 'rejected')).toEqual([names.rejected]);
      expect(await page.locator('#rejected').innerText()).toBe('Rejected content (1)');
    } finally {
      await context.close();
    }
  });

  it('pages: the older recordings are on page 2, and back', async () => {
    const { context, page } = await tab(1280, 800);
    try {
      await page.goto(`${destination.url}/`);
      await page.click('a[rel="next"]');
      expect(new URL(page.url()).search).toBe('?page=2');
      const second = await rows(page, 'recordings');
      expect(second).toHaveLength(FILLERS + 5 - 50);
      expect(await page.locator('nav.pager').first().innerText()).toMatch(/Recordings 51–53 of 53 \(page 2 of 2\)/);
      await page.click('a[rel="prev"]');
      expect((await rows(page, 'recordings'))[0]).toBe(names.transferring);
    } finally {
      await context.close();
    }
  });

  it('links to a detail page with the clips, their metadata and downloads', async () => {
    const { context, page } = await tab(1280, 800);
    try {
      await page.goto(`${destination.url}/`);
      await page.click(`tr[data-container="${names.complete}"] a`);
      expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/recordings/${names.complete}`);
      expect(await page.locator('h1').innerText()).toBe(`Recording ${names.complete}`);
      expect(await page.locator('table.objects tbody tr').count()).toBe(3);
      const firstClip = page.locator('table.objects tbody tr').first();
      expect(await firstClip.innerText()).toMatch(
        /1\.5 MB[\s\S]*1 s[\s\S]*[0-9a-f]{32}[\s\S]*Startlocation\s+Jönköping/,
      );
      const [download] = await Promise.all([page.waitForEvent('download'), firstClip.locator('a').click()]);
      expect(download.suggestedFilename()).toMatch(/^\d+_r\.mkv$/);
      await page.click('text=All recordings');
      expect(new URL(page.url()).pathname).toBe('/');
    } finally {
      await context.close();
    }
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`fits ${width} x ${height} without sideways scrolling`, async () => {
      const { context, page } = await tab(width, height);
      try {
        const paths = [
          '/',
          '/?page=2',
          `/recordings/${encodeURIComponent(names.stalled)}`,
          `/recordings/${encodeURIComponent(names.refused)}`,
          `/recordings/${encodeURIComponent(names.rejected)}`,
          '/?page=9',
        ];
        for (const path of paths) {
          await page.goto(`${destination.url}${path}`);
          expect([path, await sidewaysOverflow(page)]).toEqual([path, 0]);
        }
        await page.goto(`${destination.url}/`);
        const headerShown = await page.evaluate(
          "getComputedStyle(document.querySelector('table.recordings thead')).display",
        );
        expect(headerShown).toBe(width < 760 ? 'none' : 'table-header-group');
      } finally {
        await context.close();
      }
    });
  }
});
