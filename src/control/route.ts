/**
 * One route of the control API, declared once: method, path, summary, the zod schemas
 * of its JSON body, query and path parameters and of its answer, and its handler. The
 * same declaration registers the Express route (./register-routes) and documents it
 * (./openapi), so the two cannot drift apart.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { Logger } from '../base/log';
import type { Scheduler } from '../scenario/scheduler';
import type { ControlledEmulator } from './controlled-emulator';
import type { FeedHubs } from './feed-hubs';

/** The HTTP methods the control API uses. */
export type RouteMethod = 'get' | 'put' | 'post' | 'delete';

/** Where the emulator is in its life: its methods are usable only when `ready`. */
export type ControlState = 'starting' | 'ready' | 'closing';

/** What a handler gets: the emulator, the device it acts on, the validated body and query. */
export interface RouteCall<B = unknown, Q = unknown> {
  readonly emulator: ControlledEmulator;
  /** Serial of the device: the one of this port, or the one named in the path. */
  readonly device: string;
  readonly body: B;
  readonly query: Q;
  readonly state: ControlState;
  readonly log: Logger;
  /** The OpenAPI document of the routes served here. */
  readonly document: () => object;
  /** Time and timers of what outlives one answer (the live feed): the emulator's scheduler. */
  readonly scheduler: Scheduler;
  /** The emulator's open live feeds and their cap. */
  readonly feeds: FeedHubs;
  /** Aborts when the client goes away before the answer: a long poll (./wait-routes) stops waiting. */
  readonly signal: AbortSignal;
}

/** The request and response of an event stream route, which owns the response once it opens. */
export interface Exchange {
  readonly req: Request;
  readonly res: Response;
}

/** An answer with another status than the route's usual one (health's 503), or with headers of its own. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    /** Headers to send with it (the devices' `X-Total-Count`): documented in the route's description. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/** A documented answer other than the usual one. */
export interface OtherAnswer {
  readonly status: number;
  readonly description: string;
  readonly schema: z.ZodType;
}

/** A text body a route also takes (the scenario YAML): its media types, and the JSON field it stands for. */
export interface TextBody {
  readonly types: readonly string[];
  readonly field: string;
}

/** What every route has, whatever it answers with. */
interface RouteBase {
  readonly method: RouteMethod;
  /** The path under `/_emu`, OpenAPI style: `/events`, `/devices/{serial}/events`. */
  readonly path: string;
  readonly summary: string;
  readonly description: string | undefined;
  /** Acts on one device: also served under `/devices/{serial}` with fleet routes. */
  readonly perDevice: boolean;
  /** Answers 503 `NOT_READY` until the emulator is ready. */
  readonly whenReady: boolean;
  /** Schema of the JSON body (of the text body once put in its field). */
  readonly body: z.ZodType | undefined;
  readonly textBody: TextBody | undefined;
  readonly query: z.ZodObject | undefined;
  /** Schema of the path parameters (the fleet routes' serial). */
  readonly params: z.ZodObject | undefined;
  /** The usual status: 200 with `response` as JSON (or the event stream), or 204 without a body. */
  readonly status: 200 | 204;
  readonly response: z.ZodType | undefined;
  readonly otherAnswers: readonly OtherAnswer[];
  /** Route-specific refusals, status to description, added to the documented ones. */
  readonly refusals: Readonly<Record<number, string>>;
}

/** A route that answers JSON: the router answers with what its handler returns. */
export interface JsonRoute extends RouteBase {
  readonly kind: 'json';
  readonly handler: (call: RouteCall) => unknown;
}

/** A route that answers Server-Sent Events (`text/event-stream`): it owns the response once opened. */
export interface EventStreamRoute extends RouteBase {
  readonly kind: 'event-stream';
  /** What the stream carries (each event's name and data), for the document. */
  readonly events: string;
  /** Opens the stream on `exchange.res`; see {@link EventStreamSpec.open}. */
  readonly open: (call: RouteCall, exchange: Exchange) => void;
}

/** A route as the router and the document generator see it. */
export type ControlRoute = JsonRoute | EventStreamRoute;

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;
type Answer<R> = R extends z.ZodType ? z.input<R> : void;
type Awaitable<T> = T | Promise<T>;

/** What {@link defineRoute} takes: the route with its optional parts optional and its handler typed. */
export interface RouteSpec<B, Q, R> {
  method: RouteMethod;
  path: string;
  summary: string;
  description?: string;
  perDevice?: boolean;
  whenReady?: boolean;
  body?: B;
  textBody?: TextBody;
  query?: Q;
  /** 200 for a route that declares its answer's schema, 204 for one that does not: a JSON answer is always declared. */
  status?: R extends z.ZodType ? 200 : 204;
  response?: R;
  otherAnswers?: readonly OtherAnswer[];
  refusals?: Readonly<Record<number, string>>;
  handler: (call: RouteCall<Parsed<B>, Parsed<Q>>) => Awaitable<Answer<R> | Reply>;
}

/** Declares a route: its handler is typed by its schemas; defaults: per device, when ready, 200 (204 without a response). */
export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<B, Q, R>): JsonRoute {
  return {
    kind: 'json',
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    description: spec.description,
    perDevice: spec.perDevice ?? true,
    whenReady: spec.whenReady ?? true,
    body: spec.body,
    textBody: spec.textBody,
    query: spec.query,
    params: undefined,
    status: spec.status ?? (spec.response ? 200 : 204),
    response: spec.response,
    otherAnswers: spec.otherAnswers ?? [],
    refusals: spec.refusals ?? {},
    // The router calls it with what the route's own schemas parsed.
    handler: spec.handler as (call: RouteCall) => unknown,
  };
}

/** What {@link defineEventStream} takes. */
export interface EventStreamSpec<Q> {
  path: string;
  summary: string;
  description?: string;
  query?: Q;
  /** What the stream carries (each event's name and data), for the document. */
  events: string;
  /** Route-specific refusals, status to description, added to the documented ones. */
  refusals?: Readonly<Record<number, string>>;
  /**
   * Opens the stream on `exchange.res` (validation passed, the emulator ready): from here
   * the route owns the response, and must end every watch and timer when it closes. What
   * it throws before it writes is answered as a refusal.
   */
  open: (call: RouteCall<undefined, Parsed<Q>>, exchange: Exchange) => void;
}

/**
 * Declares a GET route answering Server-Sent Events: a {@link defineRoute} route (per device,
 * served when ready, status 200) whose answer is the stream `open` writes.
 */
export function defineEventStream<Q extends z.ZodObject | undefined = undefined>(
  spec: EventStreamSpec<Q>,
): EventStreamRoute {
  const { events, open, ...declared } = spec;
  // Every field as defineRoute fills it; its JSON handler (never called) gives way to `open`.
  const {
    kind: _kind,
    handler: _handler,
    ...route
  } = defineRoute({
    ...declared,
    method: 'get',
    handler: () => undefined,
  });
  // The router calls it with what the route's own schemas parsed; its 200 answer is the stream.
  return { ...route, status: 200, kind: 'event-stream', events, open: open as EventStreamRoute['open'] };
}
