/**
 * The device picker of a fleet (`GET /_emu/devices`): hidden with one device; Open goes to the
 * chosen device's dashboard (another port, so the browser asks for its login). Choosing alone
 * does not navigate: arrow keys on a closed select change it one step at a time.
 */
import { fill, h } from './dom.js';
import type { PanelContext } from './panel.js';
import type { DeviceAccess } from './wire-types.js';

/** Fills the picker's place `root` (hidden until there are several devices), once. */
export function mountFleetPicker(root: HTMLElement, ctx: PanelContext): void {
  root.hidden = true;
  const show = (devices: DeviceAccess[]): void => {
    if (devices.length < 2) return;
    const select = h(
      'select',
      { id: 'fleet-select' },
      ...devices.map((d) =>
        h(
          'option',
          { value: d.urls.base, selected: d.serial === ctx.info.serial },
          `${d.serial} (port ${new URL(d.urls.base).port})`,
        ),
      ),
    );
    const open = (event: Event): void => {
      event.preventDefault();
      if (select.selectedOptions[0]?.defaultSelected) return; // This device's page.
      location.assign(`${select.value}/`);
    };
    fill(
      root,
      h(
        'form',
        { id: 'fleet-form', class: 'inline-form', onsubmit: open },
        h('label', { for: select.id }, `Device (${devices.length})`),
        select,
        h('button', { type: 'submit', id: 'fleet-open' }, 'Open'),
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
