/** The routes about the emulator as a whole: health, the devices, reset, the OpenAPI document. */
import { z } from 'zod';
import { defineRoute, Reply } from './route';
import { devicePage, DevicesQuerySchema } from './device-listing';
import { DevicesSchema } from './schemas';
import { resetSegment, ResetSegmentSchema } from './segment-routes';

const NotReadySchema = z.object({ status: z.enum(['starting', 'closing']) });

/** The routes of this file. */
export const SERVICE_ROUTES = [
  defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Whether the emulator is ready',
    perDevice: false,
    whenReady: false,
    response: z.object({ status: z.literal('ready'), devices: z.number().int() }),
    otherAnswers: [{ status: 503, description: 'the emulator is starting or closing', schema: NotReadySchema }],
    handler: ({ emulator, state }) => {
      if (state !== 'ready') return new Reply(503, { status: state });
      return { status: 'ready' as const, devices: emulator.devices.length };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/devices',
    summary: 'How to reach and log in to every device (URLs, account, realm, control API)',
    description:
      'Every device in the order of the fleet; `q` keeps those whose serial or `host:port` (the address in ' +
      'address mode) contains every word of it, `offset` and `limit` answer a page of those (a big fleet: ' +
      '`?q=127.1.0.5&limit=200`). The `X-Total-Count` header says how many devices match in all (every ' +
      'device without `q`); `GET /health` says how many there are.',
    perDevice: false,
    query: DevicesQuerySchema,
    response: DevicesSchema,
    handler: ({ emulator, query }) => {
      const { devices, total } = devicePage(emulator.devices, query);
      const answer: z.input<typeof DevicesSchema> = devices.map(({ access }) => ({
        ...access,
        urls: Object.fromEntries(Object.entries(access.urls)),
        user: access.user ?? null,
        password: access.password ?? null,
        control: access.control ?? null,
      }));
      return new Reply(200, answer, { 'X-Total-Count': String(total) });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/reset',
    summary: 'Back to the start, as for a fresh test (every device)',
    description:
      'Flags to their defaults, states to the initial ones, sessions closed, tokens revoked, refused logins ' +
      "and faults cleared, journal cleared, scenarios restarted. Acts on every device of a fleet. The report's " +
      'segment ends (graded as it stands, and kept in the report) and the next begins, named by `segment` ' +
      "(in the query or a JSON body) when given: the next test's name.",
    query: ResetSegmentSchema,
    body: ResetSegmentSchema.optional(),
    handler: ({ emulator, query, body }) => {
      const segment = resetSegment(query, body);
      return emulator.reset(segment === undefined ? undefined : { segment });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    perDevice: false,
    whenReady: false,
    response: z.record(z.string(), z.unknown()),
    handler: ({ document }) => document() as Record<string, unknown>,
  }),
];
