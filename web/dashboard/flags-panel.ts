/**
 * The feature flags, through the device's real featureflag.cgi: `listAll` shows them, a toggle
 * calls `set` with that one flag and then reads `listAll` again, so the page shows what the
 * device holds, not what was clicked (and when listAll fails, what it held last). RPC errors (a
 * viewer account's 2105, an unknown flag) are shown as the device sent them. The switches are
 * updated in place; the one toggled gets the keyboard back if it lost it while it waited.
 */
import { fill, h, say } from './dom.js';
import { messageOf } from './format.js';
import { errorLine, type PanelContext, statusLine } from './panel.js';
import { callCgi } from './rpc.js';
import type { FlagState } from './wire-types.js';

/** One flag's switch and its description. */
interface FlagRow {
  row: HTMLLIElement;
  input: HTMLInputElement;
  description: HTMLElement;
}

/** Fills the flags panel `root`. */
export function mountFlagsPanel(root: HTMLElement, ctx: PanelContext): void {
  const path = ctx.info.paths.featureFlags;
  const list = h('ul', { id: 'flag-list', class: 'flags' });
  const error = errorLine('flags-error');
  const status = statusLine('flags-status', true);
  const rows = new Map<string, FlagRow>();
  let known: FlagState[] = [];

  /** Shows `flags`: in place when they are the flags shown, else drawn anew. */
  const show = (flags: FlagState[]): void => {
    const same = flags.length === rows.size && flags.every((flag) => rows.has(flag.name));
    if (!same) {
      rows.clear();
      for (const flag of flags) rows.set(flag.name, flagRow(flag.name, toggle));
      fill(list, ...[...rows.values()].map((r) => r.row));
      if (flags.length === 0) list.append(h('li', {}, 'The device has no feature flags.'));
    }
    for (const flag of flags) {
      const row = rows.get(flag.name);
      if (!row) continue;
      row.input.checked = flag.value;
      row.input.disabled = false;
      row.description.textContent = `${flag.description} (default ${flag.defaultValue ? 'on' : 'off'})`;
    }
  };
  /** Reads listAll and shows it; rejects with what went wrong. */
  const load = async (): Promise<void> => {
    const data = await callCgi<{ flags: FlagState[] }>(path, 'listAll');
    known = data.flags;
    show(known);
    status.textContent = `${known.length} flags, read ${new Date().toLocaleTimeString()}`;
  };
  const reload = async (): Promise<void> => {
    try {
      say(error, '');
      await load();
    } catch (err) {
      say(error, `listAll: ${messageOf(err)}`);
    }
  };
  const toggle = async (name: string, value: boolean): Promise<void> => {
    const problems: string[] = [];
    say(error, '');
    try {
      await callCgi(path, 'set', { flagValues: { [name]: value } });
    } catch (err) {
      problems.push(`set ${name}: ${messageOf(err)}`);
    }
    try {
      await load();
    } catch (err) {
      problems.push(`listAll: ${messageOf(err)} (showing the flags as last read)`);
      show(known);
    }
    say(error, problems.join('. '));
    // The switch was disabled while it waited, which let go of the keyboard: give it back, unless
    // the user has moved on to something else meanwhile.
    const focused = document.activeElement;
    if (focused === null || focused === document.body) rows.get(name)?.input.focus();
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
      h('button', { type: 'button', id: 'flags-reload', onclick: () => void reload() }, 'Reload'),
    ),
    status,
  );
  void reload();
}

/** The id of flag `name`'s switch. */
function flagId(name: string): string {
  return `flag-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** One flag's row: a switch with its name as label, its description and default. */
function flagRow(name: string, toggle: (name: string, value: boolean) => Promise<void>): FlagRow {
  const id = flagId(name);
  const input = h('input', {
    type: 'checkbox',
    role: 'switch',
    id,
    'data-flag': name,
    'aria-describedby': `${id}-description`,
  });
  input.addEventListener('change', () => {
    input.disabled = true;
    void toggle(name, input.checked);
  });
  const description = h('span', { id: `${id}-description`, class: 'hint' });
  // data-testid="flag": a test hook (the browser tests count the flags by it).
  const row = h('li', { class: 'flag', 'data-testid': 'flag' }, input, h('label', { for: id }, name), description);
  return { row, input, description };
}
