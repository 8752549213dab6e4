/**
 * The control API's live feed (`GET /_emu/feed`, Server-Sent Events) read with `fetch`, not
 * `EventSource`: only fetch can send the control token and the dashboard's tag. Reconnects
 * with back-off, resuming the journal after the last event id it saw.
 */
import type { ControlApi } from './control.js';
import type { ActiveFault, JournalEntry, ScenarioStatus, SessionInfo } from './types.js';

/** The feed's events and their data. */
export interface FeedEvents {
  journal: { entries: JournalEntry[]; skipped: number };
  sessions: { sessions: SessionInfo[] };
  faults: { faults: ActiveFault[] };
  scenario: ScenarioStatus;
}

/** What the feed is doing, for the page's status line. */
export type FeedState =
  { kind: 'idle' } | { kind: 'connecting' } | { kind: 'live' } | { kind: 'waiting'; retryInMs: number; why: string };

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

type Listener<K extends keyof FeedEvents> = (data: FeedEvents[K]) => void;

/** One feed for the page; panels listen to the events they show. */
export class Feed {
  private readonly listeners = new Map<string, Set<(data: never) => void>>();
  private readonly stateListeners = new Set<(state: FeedState) => void>();
  private state: FeedState = { kind: 'idle' };
  private lastId: string | undefined;
  private retryMs = FIRST_RETRY_MS;
  private timer: number | undefined;
  private abort: AbortController | undefined;

  constructor(private readonly control: ControlApi) {}

  /** Calls `listener` with each `event` of the feed; returns its remover. */
  on<K extends keyof FeedEvents>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const listeners = set as Set<Listener<K>>;
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /** Calls `listener` now and on every change of the feed's state. */
  watch(listener: (state: FeedState) => void): void {
    this.stateListeners.add(listener);
    listener(this.state);
  }

  /** Connects (again) now. */
  start(): void {
    this.stop();
    void this.run();
  }

  /** Disconnects and stays so. */
  stop(): void {
    window.clearTimeout(this.timer);
    this.abort?.abort();
    this.abort = undefined;
    this.set({ kind: 'idle' });
  }

  private async run(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    this.set({ kind: 'connecting' });
    let why: string;
    try {
      // The first time from the start of what the journal holds (the page shows what came before it).
      const res = await this.control.fetch(this.lastId === undefined ? '/feed?since=0' : '/feed', {
        headers: this.lastId === undefined ? {} : { 'Last-Event-ID': this.lastId },
        signal: abort.signal,
      });
      if (res.ok && res.body) {
        this.set({ kind: 'live' });
        this.retryMs = FIRST_RETRY_MS;
        await this.read(res.body);
        why = 'the feed ended';
      } else {
        why = `the feed answered HTTP ${res.status}`;
        await res.body?.cancel();
      }
    } catch (err) {
      if (abort.signal.aborted) return;
      why = err instanceof Error ? err.message : String(err);
    }
    if (abort.signal.aborted || this.control.state.kind !== 'ok') return this.set({ kind: 'idle' });
    this.set({ kind: 'waiting', retryInMs: this.retryMs, why });
    this.timer = window.setTimeout(() => void this.run(), this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS);
  }

  /** Reads Server-Sent Events from `body` until it ends. */
  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let event = 'message';
    let data: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r\n|\r|\n/);
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) this.dispatch(event, data.join('\n'));
          event = 'message';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
        else if (field === 'id') this.lastId = text;
      }
    }
  }

  private dispatch(event: string, text: string): void {
    const listeners = this.listeners.get(event) as Set<(data: unknown) => void> | undefined;
    if (!listeners) return;
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      console.warn(`feed: ${event} event is not JSON`);
      return;
    }
    for (const listener of listeners) listener(data);
  }

  private set(state: FeedState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }
}
