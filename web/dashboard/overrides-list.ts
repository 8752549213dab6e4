/**
 * The answer overrides in force (the feed's `overrides` event), read-only under the fault
 * switches: a test or a scenario makes them, the page only shows what answers the client now.
 */
import { fill, h } from './dom.js';
import type { DeviceOverride } from './wire-types.js';

/** What an override answers, in a few words. */
function answerText(answer: DeviceOverride['answer']): string {
  if ('error' in answer) return `JSON-RPC error ${answer.error.code} ${answer.error.message}`;
  if ('status' in answer) return `HTTP ${answer.status}`;
  if ('delayMs' in answer) return `the real answer after ${answer.delayMs} ms`;
  return 'a JSON body';
}

/** One override as a line: what it answers, which requests, how many so far. */
function overrideLine(o: DeviceOverride): HTMLElement {
  const which = [o.cgi, o.method, o.match === undefined ? undefined : `containing "${o.match}"`]
    .filter((part) => part !== undefined)
    .join(' ');
  const count =
    o.times === undefined ? `${o.answered} answered, until cleared` : `${o.answered} of ${o.times} answered`;
  return h(
    'li',
    { class: 'override', 'data-id': o.id },
    `${o.id}: ${which} answered with ${answerText(o.answer)} (${count})`,
  );
}

/** The list's element, and the function that shows the overrides last heard. */
export function overridesList(): { element: HTMLElement; show: (overrides: DeviceOverride[]) => void } {
  const list = h('ul', { id: 'override-list', class: 'overrides' });
  const show = (overrides: DeviceOverride[]): void => {
    if (overrides.length === 0) fill(list, h('li', { class: 'hint' }, 'None: every CGI answers as the device would.'));
    else fill(list, ...overrides.map(overrideLine));
  };
  show([]);
  return {
    element: h(
      'section',
      { id: 'overrides', 'aria-labelledby': 'overrides-heading' },
      h('h3', { id: 'overrides-heading' }, 'Answer overrides'),
      list,
    ),
    show,
  };
}
