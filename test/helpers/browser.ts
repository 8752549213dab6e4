/**
 * Debian's Chromium for the browser tests, driven by playwright-core: headless, `--no-sandbox`
 * (CI runs as root in a container), `BWC_EMU_CHROMIUM` pointing at another binary.
 *
 * Like the interop tests' tools, Chromium is optional on a developer's machine and required
 * where `BWC_EMU_REQUIRE_TOOLS=1` (see required-tools.ts).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { toolMissing } from './required-tools';

/** The Chromium binary the browser tests drive. */
export const CHROMIUM = process.env.BWC_EMU_CHROMIUM ?? '/usr/bin/chromium';

/** Why Chromium cannot run here and how to install it, or undefined when it is there. */
function chromiumMissing(what: string): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return (
    `${CHROMIUM} is missing: ${what} is checked in a real browser; install it with ` +
    '`apt-get install chromium` (or point BWC_EMU_CHROMIUM at a Chromium binary)'
  );
}

/**
 * `describe` for the tests of `what` (e.g. "the recordings page") in Chromium; `describe.skip`
 * when Chromium is missing, after the skip line of {@link toolMissing} (which throws instead,
 * failing the file, where the tools are required).
 */
export function describeInChromium(what: string): jest.Describe {
  const missing = chromiumMissing(what);
  if (missing === undefined) return describe;
  toolMissing(`browser tests skipped: ${missing}`);
  return describe.skip;
}

/**
 * Launches Chromium headless; `what` (e.g. "the recordings page") names what is checked in the
 * install hint thrown when the binary is missing.
 */
export async function launchChromium(what: string): Promise<Browser> {
  const missing = chromiumMissing(what);
  if (missing !== undefined) throw new Error(missing);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** How far the page scrolls sideways (0 when it fits). Page code as text: the tests are typed without the DOM. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
}
