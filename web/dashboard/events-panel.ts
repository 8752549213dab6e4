/**
 * The live event view: the page's own stream session (./event-stream) with the filter the user
 * types. A refused filter is shown under its input with the column the device named and a
 * caret under it; Pause holds new events (counted, shown on Resume); a rate counter; the newest
 * events in a bounded list; the device's close code and reason, and the reconnect.
 */
import { fill, h, pairs, say } from './dom.js';
import { EventStream, type StreamState } from './event-stream.js';
import { caretExcerpt, filterErrorOf } from './filter-error.js';
import { clockTime } from './format.js';
import type { PanelContext } from './panel.js';
import { RateCounter } from './rate-counter.js';
import type { Notification, SessionFilter } from './types.js';

/** The most events listed (and held while paused). */
const MAX_ROWS = 200;

type FilterField = 'topicFilter' | 'contentFilter';

/** Fills the live events panel `root`. */
export function mountEventsPanel(root: HTMLElement, ctx: PanelContext): void {
  const fields = {
    topicFilter: filterInput(
      'topic-filter',
      'Topic filter',
      'Empty: every event. E.g. tns1:Device//. or tns1:VideoSource/MotionAlarm',
    ),
    contentFilter: filterInput(
      'content-filter',
      'Content filter',
      "Optional. E.g. boolean(//SimpleItem[@Name='state' and @Value='1'])",
    ),
  };
  const generalError = h('p', { id: 'events-error', class: 'error', role: 'alert', hidden: true });
  const status = h('p', { id: 'events-status', class: 'status', role: 'status' }, 'Not connected');
  const rate = h('span', { id: 'events-rate', class: 'rate' }, '0.0 events/s');
  const held = h('span', { id: 'events-held', class: 'held' });
  const pause = h('button', { type: 'button', id: 'events-pause', 'aria-pressed': 'false' }, 'Pause');
  const list = h('ol', { id: 'event-list', class: 'events', 'aria-label': 'Newest events first' });
  const counter = new RateCounter();
  let paused = false;
  let heldEvents: Notification[] = [];
  let heldCount = 0;
  let queue: { n: Notification; at: number }[] = [];
  let flushing = false;

  const clearErrors = (): void => {
    for (const field of Object.values(fields)) field.showError(undefined);
    say(generalError, '');
  };
  const showHeld = (): void => {
    held.textContent = paused ? `Paused: ${heldCount} held` : '';
  };
  const flush = (): void => {
    flushing = false;
    const rows = queue.slice(-MAX_ROWS).map(({ n, at }) => eventRow(n, at));
    queue = [];
    list.prepend(...rows.reverse());
    while (list.childElementCount > MAX_ROWS) list.lastElementChild?.remove();
  };
  const show = (n: Notification, at = Date.now()): void => {
    queue.push({ n, at });
    if (queue.length > MAX_ROWS) queue = queue.slice(-MAX_ROWS);
    if (!flushing) {
      flushing = true;
      requestAnimationFrame(flush);
    }
  };

  const stream = new EventStream(ctx.info.paths, {
    state: (state) => (status.textContent = describe(state)),
    event: (n) => {
      counter.add();
      if (!paused) return show(n);
      heldCount++;
      heldEvents.push(n);
      if (heldEvents.length > MAX_ROWS) heldEvents = heldEvents.slice(-MAX_ROWS);
      showHeld();
    },
    configured: () => clearErrors(),
    refused: (filter, code, message) => {
      status.textContent = 'Connected: the new filter was refused; the previous one still applies';
      const error = filterErrorOf(code, message);
      const field = error.field ? fields[error.field] : undefined;
      if (!field) return say(generalError, `Filter refused (${code}): ${message}. The previous filter still applies.`);
      field.showError({
        text: filter[error.field as FilterField] ?? '',
        column: error.column,
        detail: error.detail,
        code,
      });
    },
  });

  const apply = (event: Event): void => {
    event.preventDefault();
    clearErrors();
    const filter: SessionFilter = { topicFilter: fields.topicFilter.input.value };
    if (fields.contentFilter.input.value.trim() !== '') filter.contentFilter = fields.contentFilter.input.value;
    stream.apply(filter);
  };
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.textContent = paused ? 'Resume' : 'Pause';
    pause.setAttribute('aria-pressed', String(paused));
    if (!paused) {
      for (const n of heldEvents) show(n);
      held.textContent =
        heldCount > 0
          ? `Resumed: ${heldCount} held events${heldCount > MAX_ROWS ? ` (newest ${MAX_ROWS} shown)` : ''}`
          : '';
      heldEvents = [];
      heldCount = 0;
    } else showHeld();
  });

  fill(
    root,
    h('h2', { id: 'events-heading' }, 'Live events'),
    h(
      'form',
      { id: 'events-form', class: 'filters', novalidate: true, onsubmit: apply },
      fields.topicFilter.element,
      fields.contentFilter.element,
      h('div', { class: 'buttons' }, h('button', { type: 'submit', id: 'events-apply' }, 'Apply'), pause, rate, held),
    ),
    generalError,
    status,
    list,
  );
  window.setInterval(() => (rate.textContent = `${counter.rate().toFixed(1)} events/s`), 1000);
  stream.apply({ topicFilter: '' });
}

/** A filter's input with its label, hint, and the place its error shows. */
function filterInput(id: string, label: string, hint: string) {
  const input = h('input', {
    id,
    name: id,
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': `${id}-hint ${id}-error`,
  });
  const error = h('div', { id: `${id}-error`, class: 'filter-error', role: 'alert', hidden: true });
  const element = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    input,
    h('span', { id: `${id}-hint`, class: 'hint' }, hint),
    error,
  );
  const showError = (
    problem: { text: string; column: number | undefined; detail: string; code: number } | undefined,
  ): void => {
    if (!problem) {
      input.removeAttribute('aria-invalid');
      fill(error);
      error.hidden = true;
      return;
    }
    input.setAttribute('aria-invalid', 'true');
    fill(
      error,
      h('p', { class: 'error', 'data-column': problem.column }, `${problem.detail} (error ${problem.code})`),
      problem.column === undefined
        ? null
        : h('pre', { class: 'caret', 'aria-hidden': 'true' }, caretExcerpt(problem.text, problem.column)),
      h('p', { class: 'hint' }, 'The previous filter still applies. Fix it and Apply again.'),
    );
    error.hidden = false;
    if (problem.column !== undefined) {
      const at = Math.min(problem.column - 1, input.value.length);
      input.setSelectionRange(at, at);
    }
  };
  return { element, input, showError };
}

/** One event as listed: time, topic, then source, key and data. */
function eventRow(n: Notification, at: number): HTMLLIElement {
  const parts: [string, Record<string, string> | undefined][] = [
    ['source', n.message?.source],
    ['key', n.message?.key],
    ['data', n.message?.data],
  ];
  return h(
    'li',
    { class: 'event', 'data-topic': n.topic },
    h('time', { class: 'time', datetime: new Date(n.timestamp ?? at).toISOString() }, clockTime(n.timestamp ?? at)),
    h('span', { class: 'topic' }, n.topic),
    ...parts
      .filter(([, part]) => part && Object.keys(part).length > 0)
      .map(([name, part]) => h('span', { class: `part part-${name}` }, `${name}: ${pairs(part)}`)),
  );
}

/** The status line of a stream state. */
function describe(state: StreamState): string {
  const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
  switch (state.kind) {
    case 'idle':
      return 'Not connected';
    case 'connecting':
      return `Connecting: ${state.step}…`;
    case 'open':
      return 'Connected: filter applied';
    case 'closed':
      // 1006 is the browser's word for "no close frame": a reset, a lost connection, a refused handshake.
      return `${state.code === 1006 ? 'Stream lost' : 'Closed by the device'}: ${state.code}${state.reason ? ` ${state.reason}` : ''}; reconnecting in ${seconds(state.retryInMs)}`;
    case 'failed':
      return `${state.message}; trying again in ${seconds(state.retryInMs)}`;
  }
}
