/** The routes that drive one device: publish events, set states, read and set flags, list and close sessions. */
import { z } from 'zod';
import type { DeviceEvent } from '../events/event-bus';
import { isCloseCode, MAX_CLOSE_REASON_BYTES, NOT_A_CLOSE_CODE } from '../protocol/websocket-close';
import { refusalDocs } from './control-codes';
import { ControlError } from './control-error';
import { sessionsAnswer } from './feed-snapshots';
import { defineRoute } from './route';
import {
  FlagsSchema,
  FlagValuesSchema,
  PublishBodySchema,
  PublishedSchema,
  SessionsSchema,
  StateBodySchema,
} from './schemas';

/** An event as the control API answers it. */
function published(event: DeviceEvent): z.input<typeof PublishedSchema>['events'][number] {
  return { topic: event.topic, timestamp: event.timestamp ?? null, stateful: event.stateful, message: event.message };
}

const CloseQuerySchema = z.strictObject({
  code: z.coerce
    .number()
    .int()
    .refine(isCloseCode, { error: NOT_A_CLOSE_CODE })
    .optional()
    .meta({ description: 'WebSocket close code; default 1001' }),
  reason: z
    .string()
    .refine((text) => Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES, {
      error: `a close reason is at most ${MAX_CLOSE_REASON_BYTES} bytes`,
    })
    .optional(),
});

/** The routes of this file. */
export const DEVICE_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/events',
    summary: 'Publish an event on the device',
    description: 'Every event stream session whose filters match receives it.',
    body: PublishBodySchema,
    response: PublishedSchema,
    handler: ({ emulator, device, body }) => {
      const { topic, source, key, data, stateful, timestamp } = body;
      const events = emulator.publish(topic, { source, key, data }, { stateful, timestamp, device });
      return { events: events.map(published) };
    },
  }),
  defineRoute({
    method: 'put',
    path: '/states',
    summary: 'Set stateful properties of the device',
    description: 'One state or a list; each is kept as the current state and sent to the matching sessions.',
    body: z.union([StateBodySchema, z.array(StateBodySchema).min(1)]),
    response: PublishedSchema,
    handler: ({ emulator, device, body }) => {
      const states = Array.isArray(body) ? body : [body];
      const events = states.flatMap(({ topic, source, key, data }) =>
        emulator.setState(topic, { source, key, data }, { device }),
      );
      return { events: events.map(published) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/flags',
    summary: 'The feature flags of the device',
    response: FlagsSchema,
    handler: ({ emulator, device }) => ({ flags: emulator.flags({ device }) }),
  }),
  defineRoute({
    method: 'put',
    path: '/flags',
    summary: 'Set feature flags of the device, all or nothing',
    body: FlagValuesSchema,
    response: FlagsSchema,
    refusals: refusalDocs('FLAG_NOT_FOUND'),
    handler: async ({ emulator, device, body }) => {
      const known = new Set(emulator.flags({ device }).map((flag) => flag.name));
      const unknown = Object.keys(body).filter((name) => !known.has(name));
      if (unknown.length > 0) throw new ControlError('FLAG_NOT_FOUND', `Flag(s) does not exist: ${unknown.join(', ')}`);
      await emulator.setFlags(body, { device });
      return { flags: emulator.flags({ device }) };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/sessions',
    summary: 'The live event stream sessions of the device',
    response: SessionsSchema,
    handler: ({ emulator, device }) => sessionsAnswer(emulator, device),
  }),
  defineRoute({
    method: 'delete',
    path: '/sessions',
    summary: 'Close every event stream session of the device',
    query: CloseQuerySchema,
    response: z.object({ closed: z.number().int() }),
    handler: ({ emulator, device, query }) => ({
      closed: emulator.closeSessions(query.code, { device, reason: query.reason }),
    }),
  }),
];
