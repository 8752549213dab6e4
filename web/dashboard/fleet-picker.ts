/**
 * The device picker of a fleet (`GET /_emu/devices`): hidden with one device; each device by
 * its serial and where it is (./fleet-choices: its address and port in address mode, its port
 * otherwise); Open goes to the chosen device's dashboard (another origin, so the browser asks
 * for its login). Choosing alone does not navigate: arrow keys on a closed select change it
 * one step at a time. The page never asks for the whole list: it asks for the first
 * {@link MAX_SHOWN_CHOICES}, which is the whole of a small fleet. A bigger fleet gets a search
 * box (serial or address; Enter opens the first match) that the control API answers, a page of
 * that many at most, as the user stops typing.
 */
import { fill, h } from './dom.js';
import {
  type FleetChoice,
  fleetChoices,
  firstPageChoices,
  MAX_SHOWN_CHOICES,
  placedByAddress,
  type ShownChoices,
} from './fleet-choices.js';
import { type DevicePage, fetchDevicePage } from './fleet-pages.js';
import { messageOf } from './format.js';
import type { PanelContext } from './panel.js';

/** How long typing pauses before the control API is asked. */
const SEARCH_DEBOUNCE_MS = 200;

/** The picker's choices for what was typed (the first list for nothing typed). */
type Lister = (query: string) => Promise<ShownChoices>;

/** Fills the picker's place `root` (hidden until there are several devices), once. */
export function mountFleetPicker(root: HTMLElement, ctx: PanelContext): void {
  root.hidden = true;
  let listed = false;
  ctx.control.watch((state) => {
    if (state.kind !== 'ok' || listed) return;
    fetchDevicePage(ctx.control, '', MAX_SHOWN_CHOICES).then(
      async (first) => {
        listed = true;
        if (first.total < 2) return;
        const { shown, list } = await choicesOf(first, ctx);
        drawPicker(root, first.total, shown, ctx.info.serial, list);
      },
      () => undefined, // One device's page works without the list.
    );
  });
}

/**
 * The first list of the fleet whose first page is `first`, and how to list what is typed:
 * nothing to search in a small fleet (the page is all of it), the control API in a big one.
 */
async function choicesOf(first: DevicePage, ctx: PanelContext): Promise<{ shown: ShownChoices; list?: Lister }> {
  const current = ctx.info.serial;
  if (first.total <= first.devices.length)
    return { shown: { shown: fleetChoices(first.devices), matched: first.total } };
  // Told from the first page: a page of search results may hold a single device.
  const byAddress = placedByAddress(first.devices);
  const page = fleetChoices(first.devices, byAddress);
  const mine = page.find((c) => c.serial === current) ?? (await deviceChoice(ctx, current, byAddress));
  const shown = firstPageChoices(page, mine, first.total);
  const list: Lister = async (query) => {
    if (query.trim() === '') return shown;
    const found = await fetchDevicePage(ctx.control, query, MAX_SHOWN_CHOICES);
    return { shown: fleetChoices(found.devices, byAddress), matched: found.total };
  };
  return { shown, list };
}

/** The choice of the device `serial` (this page's), asked of the control API; undefined when not found. */
async function deviceChoice(ctx: PanelContext, serial: string, byAddress: boolean): Promise<FleetChoice | undefined> {
  const found = await fetchDevicePage(ctx.control, serial, MAX_SHOWN_CHOICES).catch(() => undefined);
  return fleetChoices(found?.devices ?? [], byAddress).find((c) => c.serial === serial);
}

/** Draws the picker in `root`: `total` devices, `first` shown; with `list`, a search box that lists what is typed. */
function drawPicker(root: HTMLElement, total: number, first: ShownChoices, current: string, list?: Lister): void {
  const select = h('select', { id: 'fleet-select' });
  const count = h('span', { id: 'fleet-shown', class: 'hint' });
  const show = ({ shown, matched }: ShownChoices): void => {
    fill(select, ...shown.map((c) => option(c, c.serial === current)));
    count.textContent =
      matched > shown.length ? `${shown.length} of ${matched.toLocaleString('en-US')} shown: type to narrow` : '';
  };
  let asked = 0;
  let pending: Promise<void> = Promise.resolve();
  let timer: number | undefined;
  /** Lists what is typed now; an answer to an older query, come late, is dropped. */
  const search = (query: string): Promise<void> => {
    const mine = ++asked;
    pending = (list ?? (() => Promise.resolve(first)))(query).then(
      (choices) => void (mine === asked && show(choices)),
      (err: unknown) => void (mine === asked && (count.textContent = `Search failed: ${messageOf(err)}`)),
    );
    return pending;
  };
  const box = list
    ? h('input', {
        type: 'search',
        id: 'fleet-search',
        placeholder: 'serial or address',
        maxlength: '200',
        'aria-label': 'Find a device by serial or address',
        oninput: () => {
          window.clearTimeout(timer);
          timer = window.setTimeout(() => {
            timer = undefined;
            void search(box?.value ?? '');
          }, SEARCH_DEBOUNCE_MS);
        },
      })
    : undefined;
  /** Waits for the list of what is typed (asked at once if typing has not paused yet). */
  const settled = (): Promise<void> => {
    if (timer === undefined) return pending;
    window.clearTimeout(timer);
    timer = undefined;
    return search(box?.value ?? '');
  };
  const open = (event: Event): void => {
    event.preventDefault();
    void settled().then(() => {
      if (select.selectedOptions[0]?.defaultSelected) return; // This device's page.
      if (select.value) location.assign(`${select.value}/`);
    });
  };
  show(first);
  fill(
    root,
    h(
      'form',
      { id: 'fleet-form', class: 'inline-form', onsubmit: open },
      h('label', { for: select.id }, `Device (${total.toLocaleString('en-US')})`),
      box,
      select,
      h('button', { type: 'submit', id: 'fleet-open' }, 'Open'),
      count,
    ),
  );
  root.hidden = false;
}

/** The option of a device; `mine` (this page's device) is chosen by default. */
function option(choice: FleetChoice, mine: boolean): HTMLOptionElement {
  return h('option', { value: choice.base, selected: mine }, choice.label);
}
