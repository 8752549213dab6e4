/**
 * The device fault switches: what each makes the device do, the client bug it exposes, the
 * observed device behaviour it comes from, and its parameters as zod schemas. Shared by the
 * wings: the device implements them (../device/faults), scenarios validate their `fault:`
 * steps, the control API documents its body, and docs/faults.md is generated from it.
 */
import { z } from 'zod';
import { FAULT_NAMES, type FaultName } from '../base/fault-names';
import { closeCodeSchema, closeReasonSchema } from './close-code-schema';

/** `state`: stays on until cleared (or for `forMs`); `action`: happens once. */
export const FAULT_KINDS = ['state', 'action'] as const;

/** One of {@link FAULT_KINDS}. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** One switch as documented (its kind kept literal, so the device's switch table follows it). */
export interface FaultSpec<S extends z.ZodObject = z.ZodObject, K extends FaultKind = FaultKind> {
  kind: K;
  /** What the device does while it is on. */
  does: string;
  /** The client bug it brings out. */
  exposes: string;
  /** The observed device behaviour it reproduces. */
  source: string;
  params: S;
}

const ms = (what: string) => z.number().int().min(0).max(86_400_000).meta({ description: what });
const positiveMs = (what: string) => z.number().int().min(1).max(86_400_000).meta({ description: what });
/** How long a state switch stays on; without it, until cleared. */
const forMs = positiveMs('switch off again after this many ms (default: until cleared)').optional();
const topic = z.string().min(1);
const stringMap = z.record(z.string(), z.string());

const entry = <K extends FaultKind, S extends z.ZodObject>(e: FaultSpec<S, K>): FaultSpec<S, K> => e;

/** Every switch, by name: one entry per name of ../base/fault-names (a missing or extra one is a compile error). */
export const FAULT_CATALOGUE = {
  stall: entry({
    kind: 'state',
    does: 'Sessions stay open but are sent nothing; with `pings: false` the device also stops reading (no pong).',
    exposes: 'Clients that trust an open socket and never notice a silent stream (no ping timeout, no reconnect).',
    source: 'Home automation trackers: event streams silent for hours while video works, fixed by a reload.',
    params: z.strictObject({ pings: z.boolean().default(true).meta({ description: 'still answer pings' }), forMs }),
  }),
  drop: entry({
    kind: 'action',
    does: 'Ends every event stream session: a TCP reset without a close frame, or a close frame with a chosen code.',
    exposes: 'Reconnect logic that only runs on a clean close, or that misreads close codes.',
    source: 'Devices losing network or power mid-stream; firmware closing sessions with 1001/1011.',
    params: z.strictObject({
      mode: z.enum(['reset', 'close']).default('reset'),
      code: closeCodeSchema('close code (mode close)').default(1011),
      reason: closeReasonSchema().default('dropped by the device'),
    }),
  }),
  reboot: entry({
    kind: 'action',
    does:
      'Every connection cut, the port closed (connections refused; in address mode the address, connections reset, ' +
      "the port being the fleet's) for `downMs`, then back with a fresh nonce " +
      'secret, no session tokens and the initial states; logins refused for `refuseLoginsMs` after.',
    exposes: 'Clients that loop on reconnect, reuse old nonces or tokens, or keep stale state after a reboot.',
    source: 'Device reboots: every session lost, logins refused for tens of seconds; clients loop.',
    params: z.strictObject({
      downMs: ms('how long the port stays closed').default(5_000),
      refuseLoginsMs: ms('logins refused (401) for this long once back').default(0),
    }),
  }),
  digest: entry({
    kind: 'state',
    does:
      'Digest nonces expire after `nonceLifetimeMs`; `stale: false` refuses expired ones without stale=true; ' +
      '`nonceOnce` accepts each nonce for one request.',
    exposes: 'Clients that cache a nonce forever, or cannot tell an expired nonce from a wrong password.',
    source: 'Nonce lifetime 30 s on some NVRs (300 s in Apache mod_auth_digest); servers that never send stale=true.',
    params: z.strictObject({
      nonceLifetimeMs: positiveMs('nonce lifetime').optional(),
      stale: z.boolean().default(true).meta({ description: 'say stale=true for an expired nonce' }),
      nonceOnce: z.boolean().default(false).meta({ description: 'each nonce valid for one request' }),
      forMs,
    }),
  }),
  slots: entry({
    kind: 'state',
    does:
      'At most `max` concurrent event stream sessions; one more is refused at the handshake (503) or evicts ' +
      'the oldest with a close code.',
    exposes: 'Clients that leak subscriptions, or do not recover when a newer one knocks theirs out.',
    source: 'Subscription slots: 4-8 common; new subscriptions knock out old ones; probing clients leak them.',
    params: z.strictObject({
      max: z.number().int().min(1).max(10_000).default(4),
      overflow: z.enum(['refuse', 'evict']).default('evict'),
      code: closeCodeSchema('close code of an evicted session').default(1008),
      reason: closeReasonSchema().default('event subscription slots exhausted'),
      forMs,
    }),
  }),
  'stuck-states': entry({
    kind: 'state',
    does: 'A stateful property changed while on keeps that value: its later changes are never sent.',
    exposes: 'Clients that wait for a "cleared" that never comes (an alarm that never ends).',
    source: 'States set but never cleared, or only "cleared" arriving (device and integration issue trackers).',
    params: z.strictObject({ forMs }),
  }),
  'no-initial-states': entry({
    kind: 'state',
    does: 'No current states are sent after events:configure; only later changes arrive.',
    exposes: 'Clients that assume the state is sent on subscribe, or show stale state after a reconnect.',
    source: '"On" after a reconnect, states missing until they change (integration issue trackers).',
    params: z.strictObject({ forMs }),
  }),
  flap: entry({
    kind: 'action',
    does: 'A stateful topic toggles `times` times within `withinMs` (timestamps spread over that span).',
    exposes: 'Debouncing bugs: clients that act on every edge or drop the last one.',
    source: 'A PIR input toggling 1 -> 0 -> 1 within 10 ms.',
    params: z.strictObject({
      topic: topic.default('tns1:Device/tnsvendor:IO/Port'),
      source: stringMap.default({ port: '1' }),
      item: z.string().min(1).default('state').meta({ description: 'data item that toggles between 1 and 0' }),
      times: z.number().int().min(2).max(10_000).default(3),
      withinMs: ms('the span of the toggles').default(10),
    }),
  }),
  storm: entry({
    kind: 'action',
    does: 'An event storm: `ratePerSecond` events of `topic` for `forMs`.',
    exposes: 'Clients that block on each event, grow queues without bound, or fall behind and are closed (1013).',
    source: 'Event storms from noisy sensors and misconfigured rules (device forums).',
    params: z.strictObject({
      topic: topic.default('tns1:Device/tnsvendor:IO/VirtualInput'),
      ratePerSecond: z.number().int().min(1).max(100_000).default(1_000),
      forMs: positiveMs('how long the storm lasts').default(1_000),
    }),
  }),
  clock: entry({
    kind: 'state',
    does: 'Notification timestamps offset by `skewMs`, missing, or each `backwardsStepMs` before the previous.',
    exposes: 'Clients that sort or deduplicate by device time, or reject events without a timestamp.',
    source: 'Device clocks far off (no NTP); events out of order.',
    params: z.strictObject({
      skewMs: z.number().int().min(-3_153_600_000_000).max(3_153_600_000_000).default(0),
      missing: z.boolean().default(false),
      backwardsStepMs: ms('each timestamp this much before the previous; 0 is off').default(0),
      forMs,
    }),
  }),
  'no-websocket': entry({
    kind: 'state',
    does: 'The event stream path answers 404, as on firmware without WebSocket events.',
    exposes: 'Clients without a fallback (or a clear error) when the device has no WebSocket events.',
    source: 'WebSocket not offered on older firmware; clients whose new WebSocket support failed for good.',
    params: z.strictObject({ forMs }),
  }),
  cgi: entry({
    kind: 'state',
    does: 'Every CGI answer is delayed by `delayMs`; with `status: 503` it is 503 Service Unavailable.',
    exposes: 'Clients without timeouts, or that treat a busy device as a wrong password.',
    source: 'Overloaded or starting devices answering slowly or with 503.',
    params: z.strictObject({
      delayMs: ms('delay before the answer').default(0),
      status: z.literal(503).optional().meta({ description: 'answer 503 instead of the CGI' }),
      forMs,
    }),
  }),
  'tls-host': entry({
    kind: 'state',
    does: 'An HTTPS device serves a self-signed certificate for another host name.',
    exposes: 'Clients that skip host name checks, or fail with an unclear error instead of telling the user.',
    source: "Self-signed certificates and a closed port 443 made a client's WebSocket event support fail.",
    params: z.strictObject({ hostname: z.string().min(1).default('wrong-host.invalid'), forMs }),
  }),
} as const satisfies Record<FaultName, FaultSpec>;

/** The names (../base/fault-names, where the journal finds them too), in catalogue order. */
export { FAULT_NAMES, type FaultName };

/** The parameters of switch `N` as given (defaults may be left out). */
export type FaultParamsInput<N extends FaultName> = z.input<(typeof FAULT_CATALOGUE)[N]['params']>;

/** The parameters of switch `N` with defaults filled in. */
export type FaultParams<N extends FaultName> = z.output<(typeof FAULT_CATALOGUE)[N]['params']>;

/** Switch `N`'s kind. */
export type FaultKindOf<N extends FaultName> = (typeof FAULT_CATALOGUE)[N]['kind'];

/**
 * `params` checked against switch `name`'s schema, defaults filled in: typed by the name, so a
 * caller generic in it gets {@link FaultParams} of that name back.
 */
export function parseFaultParams<N extends FaultName>(name: N, params: unknown): z.ZodSafeParseResult<FaultParams<N>> {
  const schemas: { readonly [M in FaultName]: { readonly params: z.ZodType<FaultParams<M>> } } = FAULT_CATALOGUE;
  return schemas[name].params.safeParse(params);
}

/** A switch that is on: its name, parameters, and when it switches off by itself (epoch ms). */
export interface ActiveFault {
  name: FaultName;
  params: Record<string, unknown>;
  since: number;
  until: number | undefined;
}
