/**
 * The control API's state at the top of the page (the page's one live message about it), with
 * the token field when the API asks for one (401): the token is kept for this tab
 * (sessionStorage) and sent as `Bearer`; whether the API took it is said next to it.
 */
import { fill, h, say } from './dom.js';
import type { FeedState } from './feed.js';
import { controlProblem, type PanelContext, statusLine } from './panel.js';

/** Fills the control status `root`. */
export function mountControlStatus(root: HTMLElement, ctx: PanelContext): void {
  const message = h('p', { id: 'control-message', class: 'notice', role: 'status', hidden: true });
  const feed = statusLine('feed-status');
  const token = h('input', {
    id: 'control-token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'control-token-result',
  });
  const result = h('span', { id: 'control-token-result', class: 'status', role: 'status' });
  const use = async (value: string): Promise<void> => {
    say(result, value ? 'Checking the token…' : '');
    const state = await ctx.control.useToken(value);
    token.removeAttribute('aria-invalid');
    if (value === '') return say(result, 'Token forgotten.');
    if (state.kind === 'ok') return say(result, 'Token accepted.');
    if (state.kind !== 'unauthorized') return say(result, `Not checked: ${controlProblem(state)}`);
    say(result, `The control API refused this token (401: ${state.message}).`);
    token.setAttribute('aria-invalid', 'true');
    token.select();
  };
  const form = h(
    'form',
    {
      id: 'control-token-form',
      class: 'inline-form',
      hidden: true,
      onsubmit: (event) => {
        event.preventDefault();
        void use(token.value.trim());
      },
    },
    h('label', { for: token.id }, 'Control token'),
    token,
    h('button', { type: 'submit', id: 'control-token-apply' }, 'Use token'),
    h(
      'button',
      {
        type: 'button',
        id: 'control-token-forget',
        onclick: () => {
          token.value = '';
          void use('');
        },
      },
      'Forget',
    ),
    result,
  );
  ctx.control.watch((state) => {
    say(message, state.kind === 'ok' ? '' : `Control API: ${controlProblem(state)}`);
    if (state.kind === 'unauthorized' || ctx.control.token !== '') form.hidden = false;
  });
  ctx.feed.watch((state) => (feed.textContent = feedText(state)));
  fill(root, message, form, feed);
}

/** The feed's state in words, and how many of its events were not JSON. */
function feedText(state: FeedState): string {
  const bad =
    state.malformed > 0 ? `; ${state.malformed} event${state.malformed === 1 ? '' : 's'} ignored: not JSON` : '';
  switch (state.kind) {
    case 'idle':
      return `Live feed: off${bad}`;
    case 'connecting':
      return `Live feed: connecting…${bad}`;
    case 'live':
      return `Live feed: on${bad}`;
    case 'waiting':
      return `Live feed: ${state.why}; again in ${Math.round(state.retryInMs / 1000)} s${bad}`;
  }
}
