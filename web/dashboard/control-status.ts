/**
 * The control API's state at the top of the page, with the token field when the API asks for
 * one (401): the token is kept for this tab (sessionStorage) and sent as `Bearer`.
 */
import { fill, h, say } from './dom.js';
import type { FeedState } from './feed.js';
import { controlProblem, type PanelContext } from './panel.js';

/** Fills the control status `root`. */
export function mountControlStatus(root: HTMLElement, ctx: PanelContext): void {
  const message = h('p', { id: 'control-message', class: 'notice', role: 'status', hidden: true });
  const feed = h('p', { id: 'feed-status', class: 'status', role: 'status' });
  const token = h('input', { id: 'control-token', type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const form = h(
    'form',
    {
      id: 'control-token-form',
      class: 'inline-form',
      hidden: true,
      onsubmit: (event) => {
        event.preventDefault();
        void ctx.control.useToken(token.value.trim());
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
          void ctx.control.useToken('');
        },
      },
      'Forget',
    ),
  );
  ctx.control.watch((state) => {
    say(message, state.kind === 'ok' ? '' : `Control API: ${controlProblem(state)}`);
    form.hidden = state.kind !== 'unauthorized' && ctx.control.token === '';
    if (state.kind === 'ok') ctx.feed.start();
    else ctx.feed.stop();
  });
  ctx.feed.watch((state) => (feed.textContent = feedText(state)));
  fill(root, message, form, feed);
}

/** The feed's state in words. */
function feedText(state: FeedState): string {
  switch (state.kind) {
    case 'idle':
      return 'Live feed: off';
    case 'connecting':
      return 'Live feed: connecting…';
    case 'live':
      return 'Live feed: on';
    case 'waiting':
      return `Live feed: ${state.why}; again in ${Math.round(state.retryInMs / 1000)} s`;
  }
}
