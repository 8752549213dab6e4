/**
 * Pause for a live list (events, journal): a toggle button (its label stays "Pause", its
 * `aria-pressed` says whether it is held) and what arrives meanwhile, kept in a
 * {@link HeldBuffer} (the newest `max`, the others counted as dropped), handed back on Resume.
 */
import { h } from './dom.js';
import { type Held, HeldBuffer } from './held-buffer.js';

/** A pause button and what it holds. */
export interface PauseControl<T> {
  button: HTMLButtonElement;
  readonly paused: boolean;
  /** Holds `item` while paused and answers true; false when not paused (the caller shows it). */
  offer(item: T): boolean;
  /** `Paused: 12 held` (with the dropped count), or '' when not paused. */
  heldText(): string;
  /** Lets go of what is held, without showing it (what it was of is gone). */
  discard(): void;
}

/** What Resume hands back: the items kept, oldest first, and how many came in all. */
export interface Resumed<T> {
  items: Held<T>[];
  count: number;
  dropped: number;
}

/**
 * A pause button `id` for the list labelled `list`; `changed` runs after each press, with what
 * was held when it resumes.
 */
export function pauseControl<T>(
  id: string,
  list: string,
  max: number,
  changed: (resumed: Resumed<T> | undefined) => void,
): PauseControl<T> {
  const held = new HeldBuffer<T>(max);
  let paused = false;
  const button = h('button', { type: 'button', id, 'aria-pressed': 'false', 'aria-label': `Pause ${list}` }, 'Pause');
  button.addEventListener('click', () => {
    paused = !paused;
    button.setAttribute('aria-pressed', String(paused));
    if (paused) return changed(undefined);
    const { count, dropped } = held;
    changed({ items: held.release(), count, dropped });
  });
  return {
    button,
    get paused() {
      return paused;
    },
    offer: (item) => {
      if (paused) held.hold(item);
      return paused;
    },
    discard: () => void held.release(),
    heldText: () =>
      paused ? `Paused: ${held.count} held${held.dropped > 0 ? ` (${held.dropped} oldest dropped)` : ''}` : '',
  };
}

/** `Resumed: 12 held events (newest 200 shown)`, or '' when nothing was held. */
export function resumedText(resumed: Resumed<unknown>, noun: string): string {
  if (resumed.count === 0) return '';
  return `Resumed: ${resumed.count} held ${noun}${resumed.dropped > 0 ? ` (newest ${resumed.items.length} shown)` : ''}`;
}
