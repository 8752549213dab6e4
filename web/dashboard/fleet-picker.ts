/**
 * The device picker of a fleet (`GET /_emu/devices`): hidden with one device; choosing one
 * opens that device's dashboard (another port, so the browser asks for its login).
 */
import { fill, h } from './dom.js';
import type { PanelContext } from './panel.js';
import type { DeviceAccess } from './types.js';

/** Fills the picker's place `root` (hidden until there are several devices). */
export function mountFleetPicker(root: HTMLElement, ctx: PanelContext): void {
  root.hidden = true;
  const load = (): void => {
    ctx.control.call<DeviceAccess[]>('GET', '/devices').then(
      (devices) => {
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
        select.addEventListener('change', () => location.assign(`${select.value}/`));
        fill(root, h('label', { for: select.id }, `Device (${devices.length})`), select);
        root.hidden = false;
      },
      () => undefined, // One device's page works without the list.
    );
  };
  ctx.control.watch((state) => {
    if (state.kind === 'ok') load();
  });
}
