/**
 * The live event view: the page's own stream session (./event-stream) with the filter the user
 * types. A refused filter is shown under its input with the column the device named and a
 * caret under it; Pause holds new events (counted, shown on Resume); a rate counter; the newest
 * events in a bounded list, drawn once per frame (the list is `aria-busy` while rows wait); the
 * device's close code and reason, and the reconnect.
 */
import { clipped, fill, h, prependBounded, say } from './dom.js';
import { EventStream, type StreamState } from './event-stream.js';
import { filterErrorOf } from './filter-error.js';
import { filterInput } from './filter-input.js';
import { clockTime, pairs } from './format.js';
import type { Held } from './held-buffer.js';
import { errorLine, type PanelContext, statusLine } from './panel.js';
import { pauseControl, resumedText } from './pause-control.js';
import { RateCounter } from './rate-counter.js';
import type { SessionFilter } from './types.js';
import type { Notification } from './wire-types.js';
import { everyWhileVisible } from './visibility.js';

/** The most events listed (and held while paused). */
const MAX_ROWS = 200;

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
  const generalError = errorLine('events-error');
  const status = statusLine('events-status', true, 'Not connected');
  const problems = statusLine('events-problems');
  problems.hidden = true;
  const rate = h('span', { id: 'events-rate', class: 'rate' }, '0.0 events/s');
  const held = h('span', { id: 'events-held', class: 'held' });
  const list = h('ol', { id: 'event-list', class: 'events', 'aria-label': 'Newest events first' });
  const counter = new RateCounter();
  /** Events waiting for the next frame, oldest first. */
  let queue: Held<Notification>[] = [];
  let frame: number | undefined;

  const flush = (): void => {
    window.cancelAnimationFrame(frame ?? 0);
    frame = undefined;
    // Taken before the rows are made: an event a row fails on is not left queued to fail every frame.
    const pending = queue;
    queue = [];
    const rows = pending.slice(-MAX_ROWS).map(({ item, at }) => eventRow(item, at));
    prependBounded(list, rows.reverse(), MAX_ROWS);
    list.removeAttribute('aria-busy');
  };
  const show = (items: Held<Notification>[]): void => {
    for (const item of items) queue.push(item);
    if (queue.length > 2 * MAX_ROWS) queue = queue.slice(-MAX_ROWS);
    if (frame !== undefined || queue.length === 0) return;
    list.setAttribute('aria-busy', 'true');
    frame = requestAnimationFrame(flush);
  };
  const pause = pauseControl<Notification>('events-pause', 'live events', MAX_ROWS, (resumed) => {
    if (!resumed) {
      // What came before the press is shown now: the list holds still from here.
      flush();
      held.textContent = pause.heldText();
      return;
    }
    show(resumed.items);
    held.textContent = resumedText(resumed, 'events');
  });
  const clearErrors = (): void => {
    for (const field of Object.values(fields)) field.showError(undefined);
    say(generalError, '');
  };

  const stream = new EventStream(ctx.info.paths, {
    state: (state) => (status.textContent = describe(state)),
    event: (n) => {
      counter.add();
      if (pause.offer(n)) held.textContent = pause.heldText();
      else show([{ item: n, at: Date.now() }]);
    },
    configured: () => clearErrors(),
    refused: (filter, code, message) => {
      status.textContent = 'Connected: the new filter was refused; the previous one still applies';
      const error = filterErrorOf(code, message);
      const field = error.field ? fields[error.field] : undefined;
      if (!field || !error.field)
        return say(generalError, `Filter refused (${code}): ${message}. The previous filter still applies.`);
      field.showError({ text: filter[error.field] ?? '', column: error.column, detail: error.detail, code });
    },
    malformed: (count) => {
      const messages = `${count} message${count === 1 ? '' : 's'}`;
      say(problems, `${messages} from the device ignored: malformed (not JSON, or an event without a topic)`);
    },
  });

  const apply = (event: Event): void => {
    event.preventDefault();
    clearErrors();
    const filter: SessionFilter = { topicFilter: fields.topicFilter.input.value };
    if (fields.contentFilter.input.value.trim() !== '') filter.contentFilter = fields.contentFilter.input.value;
    stream.apply(filter);
  };

  fill(
    root,
    h('h2', { id: 'events-heading' }, 'Live events'),
    h(
      'form',
      { id: 'events-form', class: 'filters', novalidate: true, onsubmit: apply },
      fields.topicFilter.element,
      fields.contentFilter.element,
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'submit', id: 'events-apply' }, 'Apply'),
        pause.button,
        rate,
        held,
      ),
    ),
    generalError,
    status,
    problems,
    list,
  );
  everyWhileVisible(1000, () => (rate.textContent = `${counter.rate().toFixed(1)} events/s`));
  stream.apply({ topicFilter: '' });
}

/** One event as listed: time, topic, then source, key and data (a long one clipped). */
function eventRow(n: Notification, at: number): HTMLLIElement {
  const parts: [string, Record<string, string> | undefined][] = [
    ['source', n.message?.source],
    ['key', n.message?.key],
    ['data', n.message?.data],
  ];
  const time = n.timestamp ?? at;
  const date = new Date(time);
  return h(
    'li',
    { class: 'event', 'data-topic': n.topic },
    h(
      'time',
      { class: 'time', datetime: Number.isNaN(date.getTime()) ? undefined : date.toISOString() },
      clockTime(time),
    ),
    h('span', { class: 'topic' }, clipped(n.topic)),
    ...parts
      .filter(([, part]) => part && Object.keys(part).length > 0)
      .map(([name, part]) => h('span', { class: `part part-${name}` }, `${name}: `, clipped(pairs(part)))),
  );
}

/** The status line of a stream state. */
function describe(state: StreamState): string {
  const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
  switch (state.kind) {
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
