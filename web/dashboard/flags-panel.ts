/**
 * The feature flags, through the device's real featureflag.cgi: `listAll` shows them, a toggle
 * calls `set` with that one flag and then reads `listAll` again, so the page shows what the
 * device holds, not what was clicked. RPC errors (a viewer account's 2105, an unknown flag)
 * are shown as the device sent them.
 */
import { fill, h, say } from './dom.js';
import { messageOf } from './format.js';
import { errorLine, type PanelContext } from './panel.js';
import { callCgi } from './rpc.js';
import type { Flag } from './types.js';

/** Fills the flags panel `root`. */
export function mountFlagsPanel(root: HTMLElement, ctx: PanelContext): void {
  const path = ctx.info.paths.featureFlags;
  const list = h('ul', { id: 'flag-list', class: 'flags' });
  const error = errorLine('flags-error');
  const status = h('p', { id: 'flags-status', class: 'status', role: 'status' });

  const show = (flags: Flag[]): void => {
    fill(list, ...flags.map((flag) => flagRow(flag, toggle)));
    if (flags.length === 0) list.append(h('li', {}, 'The device has no feature flags.'));
  };
  const load = async (): Promise<void> => {
    try {
      const data = await callCgi<{ flags: Flag[] }>(path, 'listAll');
      show(data.flags);
      status.textContent = `${data.flags.length} flags, read ${new Date().toLocaleTimeString()}`;
    } catch (err) {
      say(error, `listAll: ${messageOf(err)}`);
    }
  };
  const toggle = async (name: string, value: boolean): Promise<void> => {
    say(error, '');
    try {
      await callCgi(path, 'set', { flagValues: { [name]: value } });
    } catch (err) {
      say(error, `set ${name}: ${messageOf(err)}`);
    }
    await load();
    document.getElementById(flagId(name))?.focus();
  };

  fill(
    root,
    h('h2', { id: 'flags-heading' }, 'Feature flags'),
    h('p', { class: 'hint' }, `Through ${path}: set, then listAll again.`),
    list,
    error,
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'button', id: 'flags-reload', onclick: () => void load() }, 'Reload'),
    ),
    status,
  );
  void load();
}

/** The id of flag `name`'s switch. */
function flagId(name: string): string {
  return `flag-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** One flag: a switch with its name as label, its description and default. */
function flagRow(flag: Flag, toggle: (name: string, value: boolean) => Promise<void>): HTMLLIElement {
  const id = flagId(flag.name);
  const input = h('input', {
    type: 'checkbox',
    role: 'switch',
    id,
    'data-flag': flag.name,
    'aria-describedby': `${id}-description`,
    checked: flag.value,
  });
  input.addEventListener('change', () => {
    input.disabled = true;
    void toggle(flag.name, input.checked);
  });
  return h(
    'li',
    { class: 'flag', 'data-testid': 'flag' },
    input,
    h('label', { for: id }, flag.name),
    h(
      'span',
      { id: `${id}-description`, class: 'hint' },
      `${flag.description} (default ${flag.defaultValue ? 'on' : 'off'})`,
    ),
  );
}
