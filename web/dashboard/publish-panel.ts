/**
 * Publishing an event on the device (`POST /_emu/events`): topic (suggested from the topics
 * recently published here and the scenario's, as the feed has it), source and data rows,
 * stateful. The control API's refusal (a bad topic, a value that is not a string) is shown as
 * it says it. Publish is `aria-disabled` while it runs (it keeps the keyboard's focus).
 */
import { fill, h, say } from './dom.js';
import { clockTime, messageOf } from './format.js';
import { kvRows } from './kv-rows.js';
import { controlNotice, errorLine, type PanelContext, setUsable, statusLine, usable } from './panel.js';
import { recentTopics, rememberTopic } from './recent-topics.js';

/** Fills the publish panel `root`. */
export function mountPublishPanel(root: HTMLElement, ctx: PanelContext): void {
  const serial = ctx.info.serial;
  const datalist = h('datalist', { id: 'publish-topics' });
  let scenarioTopics: string[] = [];
  const suggest = (recent: string[]): void => {
    const topics = [...new Set([...recent, ...scenarioTopics])];
    fill(datalist, ...topics.map((topic) => h('option', { value: topic })));
  };
  const topic = h('input', {
    id: 'publish-topic',
    name: 'topic',
    type: 'text',
    list: 'publish-topics',
    required: true,
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'publish-topic-hint',
  });
  const source = kvRows('publish-source', 'source');
  const data = kvRows('publish-data', 'data', { state: '1' });
  const stateful = h('input', { id: 'publish-stateful', type: 'checkbox' });
  const error = errorLine('publish-error');
  const result = statusLine('publish-result', true);
  const submit = h('button', { type: 'submit', id: 'publish-submit' }, 'Publish');

  const publish = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (!usable(submit)) return;
    say(error, '');
    result.textContent = '';
    const name = topic.value.trim();
    if (name === '') {
      say(error, 'A topic is needed, e.g. tns1:Device/tnsvendor:IO/Port');
      topic.setAttribute('aria-invalid', 'true');
      topic.focus();
      return;
    }
    topic.removeAttribute('aria-invalid');
    const body = { topic: name, source: source.value(), data: data.value(), stateful: stateful.checked };
    setUsable(submit, false);
    try {
      const answer = await ctx.control.call<{ events: { topic: string; timestamp: number | null }[] }>(
        'POST',
        '/events',
        body,
      );
      suggest(rememberTopic(serial, name));
      const first = answer?.events?.[0];
      result.textContent = first
        ? `Published ${first.topic}${first.timestamp === null ? '' : ` at ${clockTime(first.timestamp)}`}`
        : 'Published';
    } catch (err) {
      say(error, `Not published: ${messageOf(err)}`);
    } finally {
      setUsable(submit, true);
    }
  };

  fill(
    root,
    h('h2', { id: 'publish-heading' }, 'Publish an event'),
    controlNotice(ctx, 'publish'),
    h(
      'form',
      { id: 'publish-form', novalidate: true, onsubmit: (event) => void publish(event) },
      h(
        'div',
        { class: 'field' },
        h('label', { for: topic.id }, 'Topic'),
        topic,
        datalist,
        h('span', { id: 'publish-topic-hint', class: 'hint' }, 'Recently used and scenario topics are suggested.'),
      ),
      source.element,
      data.element,
      h(
        'div',
        { class: 'field inline' },
        stateful,
        h('label', { for: stateful.id }, 'Stateful (kept as the current state)'),
      ),
      h('div', { class: 'buttons' }, submit),
    ),
    error,
    result,
  );
  suggest(recentTopics(serial));
  ctx.feed.on('scenario', (status) => {
    scenarioTopics = status.topics;
    suggest(recentTopics(serial));
  });
}
