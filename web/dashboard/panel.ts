/** What every panel gets, and how a control panel says that the control API cannot be used. */
import type { ControlApi, ControlState } from './control.js';
import { h, say } from './dom.js';
import type { Feed } from './feed.js';
import type { DeviceInfo } from './types.js';

/** The page's shared parts. */
export interface PanelContext {
  info: DeviceInfo;
  control: ControlApi;
  feed: Feed;
}

/** Why the control panels are empty, in a sentence; empty when the API is usable. */
export function controlProblem(state: ControlState): string {
  switch (state.kind) {
    case 'ok':
      return '';
    case 'checking':
      return 'Checking the control API…';
    case 'off':
      return `Needs the control API, which is off (${state.message}). Flags and live events still work.`;
    case 'forbidden':
      return `The control API refused this browser (403: ${state.message}). Flags and live events still work.`;
    case 'unauthorized':
      return `The control API needs its token (401: ${state.message}): enter it in "Control token" at the top.`;
    case 'unreachable':
      return `The control API cannot be reached (${state.message}).`;
  }
}

/**
 * A notice line for a control panel (`<panel>-notice`): it says why the panel cannot work, and
 * `ready` runs each time the control API becomes usable (at start, after a token is entered).
 */
export function controlNotice(ctx: PanelContext, id: string, ready: () => void): HTMLElement {
  const notice = h('p', { id: `${id}-notice`, class: 'notice', role: 'status', hidden: true });
  let usable = false;
  ctx.control.watch((state) => {
    say(notice, controlProblem(state));
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
