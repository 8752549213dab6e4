/**
 * The device's event system. `publish()` stamps and serialises an event once;
 * every listener (the stream server, a recorder) receives the same frozen
 * {@link DeviceEvent}. Stateful ("property") topics keep their last state per
 * source and key, so a new subscription can be told the current state.
 */
import type { Clock } from '../base/clock';
import { EmulatorError } from '../base/errors';
import type { Notification, NotificationMessage } from './notification-message';
import type { EventFaults } from './event-faults';

/** How notifications are timestamped: device UTC clock, no timestamp, or local time. */
export type TimestampMode = { mode: 'utc' } | { mode: 'none' } | { mode: 'local'; offsetMinutes: number };

/** Per-event options of {@link EventBus.publish}. */
export interface PublishOptions {
  /** A property event: its last state is kept and sent to new subscribers. */
  stateful?: boolean;
  /** Overrides the device's timestamp mode for this event: epoch ms, or `null` for none. */
  timestamp?: number | null;
}

/** An event as published: with its serialised `events:notify` message, built once. */
export interface DeviceEvent {
  /** The device's number for the event, from 1: the same in every session it is sent to. */
  readonly id: number;
  readonly topic: string;
  readonly message: Readonly<NotificationMessage>;
  readonly timestamp: number | undefined;
  readonly stateful: boolean;
  /** The whole `events:notify` JSON text, shared by every session it is sent to. */
  readonly json: string;
  /** `json` as UTF-8 bytes, encoded once: sending a string would encode it per session. */
  readonly payload: Buffer;
}

/**
 * A published event, frozen. Its text is made at the first session it is sent to, and kept
 * once, as the bytes every session is sent: a device keeps its stateful events, a fleet
 * 100,000 devices' worth, most of which no session ever asks for.
 */
class PublishedEvent implements DeviceEvent {
  /** Not a property: a frozen event still gets its bytes once. */
  #payload: Buffer | undefined = undefined;

  constructor(
    readonly id: number,
    readonly topic: string,
    readonly message: Readonly<NotificationMessage>,
    readonly timestamp: number | undefined,
    readonly stateful: boolean,
  ) {
    Object.freeze(this);
  }

  get payload(): Buffer {
    return (this.#payload ??= Buffer.from(notificationJson(this), 'utf8'));
  }

  get json(): string {
    return this.payload.toString('utf8');
  }
}

/** The `events:notify` text of `event`. */
function notificationJson({ topic, timestamp, message }: DeviceEvent): string {
  // In this order on the wire: topic, timestamp (when there is one), message.
  const parts = { source: message.source ?? {}, key: message.key ?? {}, data: message.data ?? {} };
  const notification: Notification =
    timestamp === undefined ? { topic, message: parts } : { topic, timestamp, message: parts };
  return JSON.stringify({ apiVersion: '1.0', method: 'events:notify', params: { notification } });
}

/** A listener is called synchronously, in publish order. */
export type EventListener = (event: DeviceEvent) => void;

/** What a topic path looks like: `prefix:Name/prefix:Name/...`. */
export const TOPIC_PATH = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?(\/[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?)*$/;

/** Publishes events to listeners and remembers the state of stateful topics. */
export class EventBus {
  /** The listeners: none, one (a device's stream server, the usual case), or a set of several. */
  private listeners: EventListener | Set<EventListener> | undefined = undefined;
  private readonly states = new Map<string, DeviceEvent>();
  private published = 0;
  /** The last event's {@link DeviceEvent.id} (swallowed ones included). */
  private numbered = 0;
  /** The last timestamp given, for a clock fault that runs backwards. */
  private lastStamp: number | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly timestamps: TimestampMode = { mode: 'utc' },
    /** Fault switches in force (stuck states, a wrong clock); none by default. */
    private readonly faults: EventFaults = {},
  ) {}

  /**
   * Publishes an event. Throws {@link EmulatorError} `BAD_EVENT` when the topic is
   * not a topic path or a message part is not a map of strings to strings.
   */
  publish(topic: string, message: NotificationMessage = {}, options: PublishOptions = {}): DeviceEvent {
    if (!this.isTopicPath(topic)) {
      throw new EmulatorError(
        'BAD_EVENT',
        `topic "${String(topic)}" is not a topic path like tns1:Device/tnsvendor:IO/Port`,
      );
    }
    const clean = cleanMessage(message);
    const stateful = options.stateful === true;
    const key = stateful ? stateKey(topic, clean) : undefined;
    const timestamp =
      options.timestamp === undefined ? this.stamp() : options.timestamp === null ? undefined : options.timestamp;
    const event = new PublishedEvent(++this.numbered, topic, clean, timestamp, stateful);
    if (key !== undefined) {
      // A stuck state delivers its first change, then swallows the rest: nobody hears them.
      const stuck = this.faults.stuckStates;
      if (stuck?.has(key)) return event;
      stuck?.add(key);
      this.states.set(key, event);
    }
    this.published++;
    const { listeners } = this;
    if (typeof listeners === 'function') listeners(event);
    else if (listeners) for (const listener of listeners) listener(event);
    return event;
  }

  /** Whether `topic` is a topic path; the topics seen are remembered, as devices publish few again and again. */
  private isTopicPath(topic: string): boolean {
    const topics = KNOWN_TOPICS;
    if (topics.has(topic)) return true;
    if (typeof topic !== 'string' || !TOPIC_PATH.test(topic)) return false;
    if (topics.size >= MAX_KNOWN_TOPICS) topics.clear();
    topics.add(topic);
    return true;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: EventListener): () => void {
    const { listeners } = this;
    if (listeners === undefined) this.listeners = listener;
    else if (typeof listeners === 'function') this.listeners = new Set([listeners, listener]);
    else listeners.add(listener);
    return () => this.unsubscribe(listener);
  }

  /** Removes a listener added by {@link subscribe}. */
  unsubscribe(listener: EventListener): void {
    const { listeners } = this;
    if (listeners === listener) this.listeners = undefined;
    else if (typeof listeners === 'object') listeners.delete(listener);
  }

  /** The last event of every stateful topic (per source and key), oldest first. */
  currentStates(): DeviceEvent[] {
    return [...this.states.values()];
  }

  /** Forgets every kept state (a device reboot). */
  clearStates(): void {
    this.states.clear();
  }

  /** How many events were published. */
  get publishedCount(): number {
    return this.published;
  }

  private stamp(): number | undefined {
    const fault = this.faults.clock;
    if (fault?.missing) return undefined;
    let stamp: number;
    switch (this.timestamps.mode) {
      case 'none':
        return undefined;
      case 'local':
        stamp = this.clock.now() + this.timestamps.offsetMinutes * 60_000;
        break;
      default:
        stamp = this.clock.now();
    }
    if (fault) {
      stamp += fault.skewMs;
      if (fault.backwardsStepMs > 0 && this.lastStamp !== undefined) stamp = this.lastStamp - fault.backwardsStepMs;
    }
    this.lastStamp = stamp;
    return stamp;
  }
}

const MESSAGE_PARTS = ['source', 'key', 'data'] as const;

/** Past this many distinct topics the remembered ones are forgotten (and checked again). */
const MAX_KNOWN_TOPICS = 1024;

/**
 * Topics already found to be topic paths (see {@link EventBus.isTopicPath}): one set for every
 * device of the process, as whether a text is a topic path is no device's business.
 */
const KNOWN_TOPICS = new Set<string>();

/**
 * The message as an event keeps it: the parts given, each a checked copy. A message that is
 * frozen through and through (the default initial states) is kept as it is, checked: it
 * cannot change, and every device of a fleet then shares it instead of holding copies.
 */
function cleanMessage(message: NotificationMessage): Readonly<NotificationMessage> {
  if (isFrozenMessage(message)) {
    for (const part of MESSAGE_PARTS) if (message[part] !== undefined) checkStringMap(part, message[part]);
    return message;
  }
  const clean: NotificationMessage = {};
  for (const part of MESSAGE_PARTS) {
    const value = message[part];
    if (value === undefined) continue;
    clean[part] = checkStringMap(part, value);
  }
  return Object.freeze(clean);
}

/** A frozen message whose own fields are only parts that are present and frozen. */
function isFrozenMessage(message: NotificationMessage): boolean {
  if (!Object.isFrozen(message)) return false;
  return Object.entries(message).every(
    ([name, value]) =>
      (MESSAGE_PARTS as readonly string[]).includes(name) &&
      typeof value === 'object' &&
      value !== null &&
      Object.isFrozen(value),
  );
}

function checkStringMap(part: string, value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new EmulatorError('BAD_EVENT', `message.${part} must be an object of strings`);
  }
  const out: Record<string, string> = {};
  // for...in with an own check, not Object.entries: no array of pairs per publish.
  const record = value as Record<string, unknown>;
  for (const k in record) {
    if (!Object.hasOwn(record, k)) continue;
    const v = record[k];
    if (typeof v !== 'string')
      throw new EmulatorError('BAD_EVENT', `message.${part}.${k} must be a string, not ${typeof v}`);
    out[k] = v;
  }
  return out;
}

/** A state is identified by its topic, source and key (e.g. one per I/O port). */
function stateKey(topic: string, message: NotificationMessage): string {
  // Joined, not concatenated: the key is kept, and a join is one flat string where
  // concatenation would keep a tree of its parts.
  const key = [topic, canonical(message.source), canonical(message.key)].join('\u0000');
  // One copy of each key for every device: a fleet's devices keep the same states.
  const known = STATE_KEYS.get(key);
  if (known !== undefined) return known;
  if (STATE_KEYS.size < MAX_STATE_KEYS) STATE_KEYS.set(key, key);
  return key;
}

/** The state keys made so far, each kept once (up to {@link MAX_STATE_KEYS}; past it each is its own). */
const STATE_KEYS = new Map<string, string>();
const MAX_STATE_KEYS = 10_000;

function canonical(map: Readonly<Record<string, string>> | undefined): string {
  if (!map) return '';
  return Object.keys(map)
    .sort()
    .map((k) => `${k}=${map[k]}`)
    .join('\u0001');
}
