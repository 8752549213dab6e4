/**
 * The device's fault switches (`GET /_emu/faults/switches`): each with its one-line
 * explanation (its `code` as <code>), a form made from its parameters' JSON Schema, and On / Off (an action: Run).
 * The switches are drawn once (what is typed in them stays, and so does the keyboard's focus);
 * which are on is updated in place from the feed's `faults` events and the answers of On and Off.
 * Below them, read-only, the answer overrides in force (./overrides-list).
 */
import { fill, h, say, withCode } from './dom.js';
import { clockTime, messageOf } from './format.js';
import { controlNotice, errorLine, type PanelContext, statusLine } from './panel.js';
import { overridesList } from './overrides-list.js';
import { schemaForm } from './schema-form.js';
import type { ActiveFault, FaultSwitch } from './wire-types.js';

/** Fills the faults panel `root`. */
export function mountFaultsPanel(root: HTMLElement, ctx: PanelContext): void {
  const list = h('div', { id: 'fault-list', class: 'faults' });
  const error = errorLine('faults-error');
  const states = new Map<FaultSwitch['name'], HTMLElement>();
  /** The faults on, as last heard. */
  let active: ActiveFault[] = [];
  let loaded = false;
  const overrides = overridesList();

  const showActive = (faults: ActiveFault[]): void => {
    active = faults;
    const on = new Map(faults.map((f) => [f.name, f]));
    for (const [name, state] of states) {
      const active = on.get(name);
      state.textContent = active
        ? `on since ${clockTime(active.since)}${active.until === null ? '' : `, until ${clockTime(active.until)}`}`
        : 'off';
      state.dataset.on = String(active !== undefined);
      state.closest('.fault')?.classList.toggle('on', active !== undefined);
    }
  };
  const switchRow = (sw: FaultSwitch): HTMLElement => {
    const prefix = `fault-${sw.name}`;
    const form = schemaForm(`${prefix}-param`, sw.params);
    const state = h('span', { id: `${prefix}-state`, class: 'badge state', 'data-on': 'false' }, 'off');
    const rowError = errorLine(`${prefix}-error`);
    const status = statusLine(`${prefix}-status`, true);
    states.set(sw.name, state);
    const on = async (): Promise<void> => {
      say(rowError, '');
      let params: Record<string, unknown>;
      try {
        params = form.values();
      } catch (err) {
        return say(rowError, messageOf(err));
      }
      status.textContent = sw.kind === 'action' ? 'running…' : 'switching on…';
      try {
        const answer = await ctx.control.call<{ faults: ActiveFault[] }>('POST', '/faults', {
          name: sw.name,
          ...params,
        });
        showActive(answer.faults);
        status.textContent = sw.kind === 'action' ? `done at ${clockTime(Date.now())}` : '';
      } catch (err) {
        status.textContent = '';
        say(rowError, messageOf(err));
      }
    };
    const off = async (): Promise<void> => {
      say(rowError, '');
      try {
        const { cleared } = await ctx.control.call<{ cleared: string[] }>(
          'DELETE',
          `/faults?name=${encodeURIComponent(sw.name)}`,
        );
        showActive(active.filter((f) => !cleared.includes(f.name)));
      } catch (err) {
        say(rowError, messageOf(err));
      }
    };
    const label = sw.kind === 'action' ? 'Run' : 'On';
    return h(
      'article',
      { class: 'fault', id: prefix, 'data-fault': sw.name, 'aria-labelledby': `${prefix}-name` },
      h(
        'div',
        { class: 'fault-head' },
        h('h3', { id: `${prefix}-name` }, sw.name),
        h('span', { class: 'badge kind' }, sw.kind),
        sw.kind === 'state' ? state : null,
      ),
      h('p', { class: 'does', id: `${prefix}-does` }, ...withCode(sw.does)),
      h(
        'details',
        { id: `${prefix}-details` },
        h('summary', {}, sw.params ? 'Parameters and background' : 'Background'),
        h('p', { class: 'hint' }, 'Exposes: ', ...withCode(sw.exposes)),
        h('p', { class: 'hint' }, 'Seen on: ', ...withCode(sw.source)),
        sw.params ? form.element : h('p', { class: 'hint' }, 'The control API lists no parameters: defaults apply.'),
      ),
      h(
        'div',
        { class: 'buttons' },
        h(
          'button',
          { type: 'button', id: `${prefix}-on`, 'aria-label': `${label} ${sw.name}`, onclick: () => void on() },
          label,
        ),
        sw.kind === 'state'
          ? h(
              'button',
              { type: 'button', id: `${prefix}-off`, 'aria-label': `Off ${sw.name}`, onclick: () => void off() },
              'Off',
            )
          : null,
        status,
      ),
      rowError,
    );
  };

  /** Draws the switches, the first time the control API is usable (again after a failure). */
  const load = async (): Promise<void> => {
    if (loaded) return;
    say(error, '');
    try {
      const { switches } = await ctx.control.call<{ switches: FaultSwitch[] }>('GET', '/faults/switches');
      if (loaded) return;
      loaded = true;
      fill(list, ...switches.map(switchRow));
      showActive(active);
    } catch (err) {
      say(error, `Fault switches: ${messageOf(err)}`);
    }
  };

  fill(
    root,
    h('h2', { id: 'faults-heading' }, 'Fault switches'),
    controlNotice(ctx, 'faults', () => void load()),
    error,
    list,
    overrides.element,
  );
  ctx.feed.on('faults', ({ faults }) => showActive(faults));
  ctx.feed.on('overrides', ({ overrides: active }) => overrides.show(active));
}
