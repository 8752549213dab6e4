/**
 * The device picker of a fleet (`GET /_emu/devices`): hidden with one device; each device by
 * its serial and where it is (./fleet-choices: its address and port in address mode, its port
 * otherwise); Open goes to the chosen device's dashboard (another origin, so the browser asks
 * for its login). Choosing alone does not navigate: arrow keys on a closed select change it
 * one step at a time. A fleet of more than {@link MAX_SHOWN_CHOICES} devices gets a search box
 * (serial or address; Enter opens the first match) and a list of that many at most.
 */
import { fill, h } from './dom.js';
import { type FleetChoice, fleetChoices, MAX_SHOWN_CHOICES, shownChoices } from './fleet-choices.js';
import type { PanelContext } from './panel.js';
import type { DeviceAccess } from './wire-types.js';

/** Fills the picker's place `root` (hidden until there are several devices), once. */
export function mountFleetPicker(root: HTMLElement, ctx: PanelContext): void {
  root.hidden = true;
  const show = (devices: DeviceAccess[]): void => {
    if (devices.length < 2) return;
    const choices = fleetChoices(devices);
    const current = ctx.info.serial;
    const select = h('select', { id: 'fleet-select' });
    const count = h('span', { id: 'fleet-shown', class: 'hint' });
    const list = (query: string): void => {
      const { shown, matched } = shownChoices(choices, query, current);
      fill(select, ...shown.map((c) => option(c, c.serial === current)));
      count.textContent =
        matched > shown.length ? `${shown.length} of ${matched.toLocaleString('en-US')} shown: type to narrow` : '';
    };
    const search =
      choices.length > MAX_SHOWN_CHOICES
        ? h('input', {
            type: 'search',
            id: 'fleet-search',
            placeholder: 'serial or address',
            'aria-label': 'Find a device by serial or address',
            oninput: () => list(search?.value ?? ''),
          })
        : undefined;
    list('');
    const open = (event: Event): void => {
      event.preventDefault();
      if (select.selectedOptions[0]?.defaultSelected) return; // This device's page.
      if (select.value) location.assign(`${select.value}/`);
    };
    fill(
      root,
      h(
        'form',
        { id: 'fleet-form', class: 'inline-form', onsubmit: open },
        h('label', { for: select.id }, `Device (${devices.length.toLocaleString('en-US')})`),
        search,
        select,
        h('button', { type: 'submit', id: 'fleet-open' }, 'Open'),
        count,
      ),
    );
    root.hidden = false;
  };
  let listed = false;
  ctx.control.watch((state) => {
    if (state.kind !== 'ok' || listed) return;
    ctx.control.call<DeviceAccess[]>('GET', '/devices').then(
      (devices) => {
        listed = true;
        show(devices);
      },
      () => undefined, // One device's page works without the list.
    );
  });
}

/** The option of a device; `mine` (this page's device) is chosen by default. */
function option(choice: FleetChoice, mine: boolean): HTMLOptionElement {
  return h('option', { value: choice.base, selected: mine }, choice.label);
}
