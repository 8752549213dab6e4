/**
 * Debian's Chromium for the browser tests, driven by playwright-core: headless, `--no-sandbox`
 * (CI runs as root in a container), `BWC_EMU_CHROMIUM` pointing at another binary. Chromium is
 * required, not optional: without it the test fails and says how to install it.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** The Chromium binary the browser tests drive. */
export const CHROMIUM = process.env.BWC_EMU_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Launches Chromium headless; `what` (e.g. "the recordings page") names what is checked in the
 * install hint thrown when the binary is missing.
 */
export async function launchChromium(what: string): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: ${what} is checked in a real browser; install it with ` +
        '`apt-get install chromium` (or point BWC_EMU_CHROMIUM at a Chromium binary)',
    );
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** How far the page scrolls sideways (0 when it fits). Page code as text: the tests are typed without the DOM. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
}
