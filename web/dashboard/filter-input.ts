/**
 * A filter's input in the live events form, with its label and hint, and the place under it
 * where the device's refusal shows: the message, a caret under the column it names, and the
 * cursor put there.
 */
import { fill, h } from './dom.js';
import { caretExcerpt } from './filter-error.js';

/** What is wrong with the filter, as the events panel read the device's refusal. */
export interface FilterProblem {
  text: string;
  column: number | undefined;
  detail: string;
  code: number;
}

/** One filter input. */
export interface FilterInput {
  element: HTMLElement;
  input: HTMLInputElement;
  /** Shows `problem` under the input; undefined clears it. */
  showError(problem: FilterProblem | undefined): void;
}

/** The input `id` labelled `label`, with `hint`. */
export function filterInput(id: string, label: string, hint: string): FilterInput {
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
  const showError = (problem: FilterProblem | undefined): void => {
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
