/**
 * The control API's live feed (`GET /_emu/feed`, Server-Sent Events) read with `fetch`, not
 * `EventSource`: only fetch can send the control token and the dashboard's tag. Reconnects
 * with back-off, resuming the journal after the last event id it handed on. The snapshot
 * events (sessions, faults, scenario) are kept, the last of each, and given to a panel that
 * listens later at once. A listener that throws is reported, and the others and the feed go on.
 */
import { Backoff } from './backoff.js';
import type { ControlApi } from './control.js';
import { messageOf } from './format.js';
import { httpProblem } from './http.js';
import { Listeners } from './listeners.js';
import { SseParser } from './sse-parser.js';
import type { FeedEvents } from './wire-types.js';

type FeedEvent = keyof FeedEvents;

/** The events that are a snapshot of something (not news): the last is kept for late listeners. */
const SNAPSHOTS: ReadonlySet<FeedEvent> = new Set<FeedEvent>(['sessions', 'faults', 'overrides', 'scenario']);

type FeedPhase =
  { kind: 'idle' } | { kind: 'connecting' } | { kind: 'live' } | { kind: 'waiting'; retryInMs: number; why: string };

/** What the feed is doing, for the page's status line; `malformed`: events that were not JSON so far. */
export type FeedState = FeedPhase & { malformed: number };

/** One feed for the page; panels listen to the events they show. */
export class Feed {
  /** The listeners of each event (a `Listeners<FeedEvents[K]>` for event K). */
  private readonly listeners = new Map<FeedEvent, Listeners<unknown>>();
  private readonly last = new Map<FeedEvent, unknown>();
  private readonly states = new Listeners<FeedState>();
  private state: FeedState = { kind: 'idle', malformed: 0 };
  private lastId: string | undefined;
  private readonly backoff = new Backoff();
  private timer: number | undefined;
  private abort: AbortController | undefined;

  /** @param onError told when a listener of `event` throws */
  constructor(
    private readonly control: ControlApi,
    private readonly onError: (event: string, err: unknown) => void,
  ) {}

  /** Calls `listener` with each `event` of the feed (and a snapshot event's last data at once); returns its remover. */
  on<K extends FeedEvent>(event: K, listener: (data: FeedEvents[K]) => void): () => void {
    let set = this.listeners.get(event) as Listeners<FeedEvents[K]> | undefined;
    if (!set) {
      set = new Listeners<FeedEvents[K]>((err) => this.onError(event, err));
      this.listeners.set(event, set as Listeners<unknown>);
    }
    const remove = set.add(listener);
    if (this.last.has(event)) set.call(listener, this.last.get(event) as FeedEvents[K]);
    return remove;
  }

  /** Calls `listener` now and on every change of the feed's state; returns its remover. */
  watch(listener: (state: FeedState) => void): () => void {
    const remove = this.states.add(listener);
    this.states.call(listener, this.state);
    return remove;
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
        this.backoff.reset();
        await this.read(res.body);
        why = 'the feed ended';
      } else {
        why = `the feed answered ${await httpProblem(res)}`;
      }
    } catch (err) {
      if (abort.signal.aborted) return;
      why = messageOf(err);
    }
    if (abort.signal.aborted || this.control.state.kind !== 'ok') return this.set({ kind: 'idle' });
    const wait = this.backoff.next();
    this.set({ kind: 'waiting', retryInMs: wait, why });
    this.timer = window.setTimeout(() => void this.run(), wait);
  }

  /** Reads Server-Sent Events from `body` until it ends. */
  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      for (const { event, data, id } of parser.push(decoder.decode(value, { stream: true }))) {
        this.dispatch(event, data);
        // After the panels have it: a feed that breaks meanwhile resumes with this event again.
        if (id !== undefined) this.lastId = id;
      }
    }
  }

  private dispatch(event: string, text: string): void {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      console.warn(`feed: a ${event} event is not JSON: ${text.slice(0, 100)}`);
      this.set(this.state, this.state.malformed + 1);
      return;
    }
    const name = event as FeedEvent;
    if (SNAPSHOTS.has(name)) this.last.set(name, data);
    this.listeners.get(name)?.emit(data);
  }

  private set(phase: FeedPhase, malformed = this.state.malformed): void {
    this.state = { ...phase, malformed };
    this.states.emit(this.state);
  }
}
