/**
 * The device dashboard in Chromium, with what others send it and what the keyboard does: an
 * event whose data is HTML is shown as text (no element made, nothing run), a very long value
 * is clipped behind an expander without widening the page, and the keyboard's focus goes where
 * it should when a name = value row is removed and while Publish runs.
 */
import { describeInChromium, sidewaysOverflow } from '../helpers/browser';
import {
  countOf,
  dashboardRig,
  eventRows,
  focusedId,
  inPage,
  textOf,
  waitForCount,
  waitForText,
} from '../helpers/dashboard-page';

const describeWithChromium = describeInChromium('the device dashboard');
const rig = dashboardRig();

/** Publishes an event through the control API, as a test of a client would. */
async function publish(event: { topic: string; data: Record<string, string> }): Promise<void> {
  const res = await fetch(`${rig.url}/_emu/events`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(event),
  });
  if (!res.ok) throw new Error(`POST /_emu/events answered ${res.status}: ${await res.text()}`);
}

const TOPIC = 'tns1:Device/Trigger/Relay';
const ROW = eventRows(TOPIC);

describeWithChromium('the device dashboard in Chromium, with what others send it', () => {
  it('tells a third tab of a device that its stream handshake was refused (2 dashboard sessions per device)', async () => {
    await rig.liveDashboard();
    await rig.liveDashboard();
    const page = await rig.dashboard();
    await waitForText(page, '#events-status', /handshake was refused.*at most 2 dashboard sessions/);
    expect(rig.emulator.sessions().filter((s) => s.via === 'dashboard')).toHaveLength(2);
  });

  it('shows HTML in an event as text: no element is made, nothing runs', async () => {
    const page = await rig.liveDashboard();
    const html = `<img src=x onerror="document.title='run'"><b>bold</b>`;
    await publish({ topic: TOPIC, data: { state: html } });
    await waitForCount(page, ROW, 1);
    expect(await textOf(page, `${ROW} .part-data`)).toBe(`data: state=${html}`);
    expect(await countOf(page, `${ROW} img, ${ROW} b, img`)).toBe(0);
    expect(await inPage<string>(page, '() => document.title')).not.toBe('run');
  });

  it('clips a very long value behind an expander, without widening the page', async () => {
    const page = await rig.liveDashboard(390, 844);
    const long = `${'x'.repeat(3000)}END`;
    await publish({ topic: TOPIC, data: { state: long } });
    await waitForCount(page, ROW, 1);
    const clip = `${ROW} .part-data details.clip`;
    expect(await countOf(page, clip)).toBe(1);
    // The whole value is there, the start of it shown, the rest behind the summary.
    expect(await textOf(page, `${ROW} .part-data`)).toBe(`data: state=${long}`);
    expect((await textOf(page, `${clip} summary`)).length).toBeLessThan(300);
    expect(await sidewaysOverflow(page)).toBe(0);
    await page.click(`${clip} summary`);
    expect(await page.getAttribute(clip, 'open')).not.toBeNull();
    expect(await sidewaysOverflow(page)).toBe(0);
  });
});

describeWithChromium('the device dashboard in Chromium, by keyboard', () => {
  it('hands the focus on when a name = value row is removed: the next row, else Add', async () => {
    const page = await rig.liveDashboard();
    await page.focus('#publish-data-add');
    await page.keyboard.press('Enter');
    expect(await focusedId(page)).toBe('publish-data-name-1');
    expect(await countOf(page, '#publish-data .kv-row')).toBe(2);

    await page.focus('#publish-data button[aria-label="Remove data row 1"]');
    await page.keyboard.press('Enter');
    expect(await countOf(page, '#publish-data .kv-row')).toBe(1);
    expect(await focusedId(page)).toBe('publish-data-name-1');

    await page.focus('#publish-data button[aria-label="Remove data row 2"]');
    await page.keyboard.press('Enter');
    expect(await countOf(page, '#publish-data .kv-row')).toBe(0);
    expect(await focusedId(page)).toBe('publish-data-add');
  });

  it('keeps the focus on Publish while it runs and after', async () => {
    const page = await rig.liveDashboard();
    await page.fill('#publish-topic', TOPIC);
    await page.focus('#publish-submit');
    await page.keyboard.press('Enter');
    await waitForText(page, '#publish-result', new RegExp(`^Published ${TOPIC}`));
    expect(await focusedId(page)).toBe('publish-submit');
    expect(await page.getAttribute('#publish-submit', 'aria-disabled')).toBeNull();
    await waitForCount(page, ROW, 1);
  });
});
