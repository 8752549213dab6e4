/**
 * The zod schemas the control routes share: the error answer, events and their message
 * parts, flags, sessions, device access. They validate requests and, through
 * ./openapi, are the document's schemas.
 */
import { z } from 'zod';
import { FlagStateSchema } from '../device/feature-flags';
import { TOPIC_PATH } from '../events/event-bus';
import { MessagePartSchema } from '../events/notification-message';
import { SessionInfoSchema } from '../events/session-info';

/** One error of a scenario that does not load, at its line and column (from 1). */
export const ScenarioProblemSchema = z.object({
  line: z.number().int(),
  col: z.number().int(),
  message: z.string(),
  text: z.string().meta({ description: '`file:line:col: message`' }),
});

/** Every refusal: `{ error: { code, message } }` (`errors` only with `BAD_SCENARIO`). */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'stable code: BAD_REQUEST, NOT_FOUND, FLAG_NOT_FOUND, TIMEOUT, ...' }),
      message: z.string(),
      errors: z.array(ScenarioProblemSchema).optional(),
    }),
  })
  .meta({ id: 'Error' });

/** A topic path like `tns1:Device/tnsvendor:IO/Port`. */
export const TopicSchema = z
  .string()
  .regex(TOPIC_PATH, { error: 'expected a topic path like tns1:Device/tnsvendor:IO/Port' })
  .meta({ example: 'tns1:Device/tnsvendor:IO/Port' });

/** An event to publish on the device. */
export const PublishBodySchema = z.strictObject({
  topic: TopicSchema,
  source: MessagePartSchema.optional(),
  key: MessagePartSchema.optional(),
  data: MessagePartSchema.optional(),
  stateful: z.boolean().optional().meta({ description: 'keep it as the current state for new subscribers' }),
  timestamp: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .optional()
    .meta({ description: "epoch milliseconds; null for none; default: the device's clock" }),
});

/** A new state of a stateful topic. */
export const StateBodySchema = z.strictObject({
  topic: TopicSchema,
  source: MessagePartSchema.optional(),
  key: MessagePartSchema.optional(),
  data: MessagePartSchema,
});

/** An event as it was published. */
export const PublishedEventSchema = z
  .object({
    topic: z.string(),
    timestamp: z.number().nullable().meta({ description: 'epoch milliseconds, null when sent without one' }),
    stateful: z.boolean(),
    message: z.object({
      source: MessagePartSchema.optional(),
      key: MessagePartSchema.optional(),
      data: MessagePartSchema.optional(),
    }),
  })
  .meta({ id: 'PublishedEvent' });

/** The answer of the routes that publish. */
export const PublishedSchema = z.object({ events: z.array(PublishedEventSchema) });

/** The feature flags of a device, as `featureflag.cgi` lists them. */
export const FlagsSchema = z.object({ flags: z.array(FlagStateSchema) });

/** Flags to set, all or nothing. */
export const FlagValuesSchema = z
  .record(z.string().min(1), z.boolean({ error: 'a flag is true or false' }))
  .meta({ example: { graphics_udvd: true } });

/** A session of one of the devices: a device's session, with the device's serial after its `id`. */
const { id: sessionId, ...sessionFields } = SessionInfoSchema.shape;
export const EmulatorSessionSchema = z.object({ id: sessionId, device: z.string(), ...sessionFields });

/** The event stream sessions of a device. */
export const SessionsSchema = z.object({ sessions: z.array(EmulatorSessionSchema) });

/**
 * How to reach and log in to a device, as `GET /_emu/devices` answers it; the handle's
 * `DeviceAccess` (./controlled-emulator) is this shape with undefined for null.
 */
export const DeviceAccessSchema = z.object({
  serial: z.string(),
  urls: z
    .record(z.string(), z.string())
    .meta({ description: "every endpoint's URL (`base`, `featureFlags`, `sessionToken`, `eventStream`, ...)" }),
  user: z.string().nullable().meta({ description: 'the admin account; null with auth `none`' }),
  password: z.string().nullable(),
  realm: z.string(),
  control: z
    .string()
    .nullable()
    .meta({ description: 'the control API of this device (`.../_emu`); null when it is off' }),
});

/** How to reach and log in to each device. */
export const DevicesSchema = z.array(DeviceAccessSchema);
