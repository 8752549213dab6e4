/**
 * What every panel gets, the lines panels show (errors, statuses, why the control API cannot be
 * used), and buttons that can be made unusable without losing the keyboard's focus.
 */
import type { ControlApi, ControlState } from './control.js';
import { h, say } from './dom.js';
import type { Feed } from './feed.js';
import type { DashboardDeviceInfo } from './wire-types.js';

/** The page's shared parts. */
export interface PanelContext {
  info: DashboardDeviceInfo;
  control: ControlApi;
  feed: Feed;
}

/** The panels that need the control API, as the page's one message about it names them. */
const NEEDS_IT = 'the scenario, publishing, sessions, fault switches, journal and report need it';

/** What a control panel says while the API is off: the page's message (#control-message) says why, once. */
const PANEL_OFF = 'Off: needs the control API.';

/** Why the control panels are empty, in a sentence; empty when the API is usable. */
export function controlProblem(state: ControlState): string {
  switch (state.kind) {
    case 'ok':
      return '';
    case 'checking':
      return 'Checking the control API…';
    case 'off':
      return `off (${state.message}): ${NEEDS_IT}. Flags and live events still work.`;
    case 'forbidden':
      return `The control API refused this browser (403: ${state.message}). Flags and live events still work.`;
    case 'unauthorized':
      return `The control API needs its token (401: ${state.message}): enter it in "Control token" at the top.`;
    case 'unreachable':
      return `The control API cannot be reached (${state.message}); trying again.`;
    case 'failing':
      return `The control API is not answering as it should (${state.message}); trying again.`;
  }
}

/**
 * A notice line for a control panel (`<panel>-notice`): it says why the panel cannot work, and
 * `ready` runs each time the control API becomes usable (at start, after a token is entered).
 * Not a live region: the page's one control message (#control-message) announces the change.
 * While the API is off (nothing to wait for) it is a plain status line, "Off", and what follows
 * it in the panel is hidden (`data-control-off`: dashboard.css).
 */
export function controlNotice(ctx: PanelContext, id: string, ready: () => void = () => undefined): HTMLElement {
  const notice = h('p', { id: `${id}-notice`, class: 'notice', hidden: true });
  let usable = false;
  ctx.control.watch((state) => {
    const off = state.kind === 'off';
    notice.className = off ? 'status' : 'notice';
    notice.toggleAttribute('data-control-off', off);
    say(notice, off ? PANEL_OFF : controlProblem(state));
    const now = state.kind === 'ok';
    if (now && !usable) ready();
    usable = now;
  });
  return notice;
}

/** An error line (`role=alert`), hidden while empty. */
export function errorLine(id: string): HTMLElement {
  return h('p', { id, class: 'error', role: 'alert', hidden: true });
}

/**
 * A status line; `live` makes it announced (`role=status`): only for the outcome of something
 * the user did, never for a count rewritten with every batch of the feed.
 */
export function statusLine(id: string, live = false, text = ''): HTMLElement {
  return h('p', { id, class: 'status', role: live ? 'status' : undefined }, text);
}

/**
 * Makes `button` usable or not with `aria-disabled`, not `disabled`: a disabled button drops
 * the keyboard's focus, this one keeps it (and stays in the Tab order). Its click must check
 * {@link usable}.
 */
export function setUsable(button: HTMLButtonElement, on: boolean): void {
  if (on) button.removeAttribute('aria-disabled');
  else button.setAttribute('aria-disabled', 'true');
}

/** Whether `button` may act (see {@link setUsable}). */
export function usable(button: HTMLButtonElement): boolean {
  return button.getAttribute('aria-disabled') !== 'true';
}
