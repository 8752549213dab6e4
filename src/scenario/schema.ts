/**
 * The scenario format, as zod schemas: the single source of the TypeScript types,
 * the validation messages users see, and `schema/scenario.schema.json` for editors.
 *
 * A scenario file:
 * ```yaml
 * name: motion demo
 * device: { serial: ACCC8E000001, model: W110 }
 * flags: { recording_indicator: true }
 * states:
 *   - { topic: tns1:Device/tnsvendor:IO/Port, source: { port: 1 }, data: { state: 0 } }
 * groups:
 *   burst: [ { emit: { topic: tns1:VideoSource/MotionAlarm } }, { pause: 200ms } ]
 * timeline:
 *   - { at: 1s, run: burst }
 *   - { every: 5s, times: 3, jitter: 500ms, emit: { topic: tns1:Device/Heartbeat } }
 *   - { on: connect, steps: [ { set: { topic: tns1:Device/tnsvendor:IO/Port, data: { state: 1 } } } ] }
 * loop: { times: 2 }
 * body-worn:                  # recordings uploaded to --connection-file's destination
 *   users: [ { id: officer_1, name: Alex Smith } ]
 *   recordings: [ { at: 90s, user: officer_1, clips: 2, clip-duration: 24s, clip-size: 256KB } ]
 * ```
 * Durations are strings (`500ms`, `1m30s`, see ./duration) and become milliseconds.
 * Message values (source, key, data) may be written as strings, numbers or booleans
 * and become strings, as the device sends them.
 */
import { z } from 'zod';
import { TOPIC_PATH } from '../events/event-bus';
import { DurationSchema } from '../base/duration';
import { isCloseCode, MAX_CLOSE_REASON_BYTES, NOT_A_CLOSE_CODE } from '../protocol/websocket-close';
import { schemaFile } from '../base/json-schema';
import { OverrideSpecSchema } from '../protocol/answer-override-spec';
import { FAULT_CATALOGUE, FAULT_NAMES } from '../protocol/fault-catalogue';
import { PlanDeviceSchema, PlanRecordingSchema, PlanUserSchema } from '../bws/plan';

/** Keys that say when a step runs. */
export const TIMING_KEYS = ['at', 'after', 'every'] as const;

const duration = DurationSchema;

const topic = z.string({ error: 'expected a topic string like tns1:Device/tnsvendor:IO/Port' }).regex(TOPIC_PATH, {
  error: (iss) => `"${String(iss.input)}" is not a topic path like tns1:Device/tnsvendor:IO/Port`,
});

const scalar = z
  .union([z.string(), z.number(), z.boolean()], { error: 'expected a string, number or boolean value' })
  .transform(String);

const messagePart = z.record(z.string(), scalar, { error: 'expected a map of names to values' });

const flagMap = z.record(z.string().min(1), z.boolean({ error: 'a flag is true or false' }), {
  error: 'expected a map of flag names to true/false',
});

const timestamp = z.union([z.literal('device'), z.literal('none'), z.number().int().nonnegative()], {
  error: "timestamp is 'device' (the device clock), 'none', or epoch milliseconds",
});

/**
 * A device fault switch (docs/faults.md): `name`, its parameters as the control API takes
 * them, and `for` (a duration) in place of `forMs` for a state switch.
 */
export const FaultStepSchema = z
  .looseObject({
    name: z.enum(FAULT_NAMES, {
      error: `name is one of the fault switches: ${FAULT_NAMES.join(', ')}`,
    }),
    for: duration.optional(),
  })
  .transform((value, ctx) => {
    const { name, for: forMs, ...rest } = value;
    const params = forMs === undefined ? rest : { ...rest, forMs };
    const parsed = FAULT_CATALOGUE[name].params.safeParse(params);
    if (parsed.success) {
      const checked: Record<string, unknown> = parsed.data;
      return { name, params: checked };
    }
    for (const issue of parsed.error.issues)
      ctx.addIssue({
        code: 'custom',
        message: issue.message,
        path: issue.path.map((p) => (p === 'forMs' ? 'for' : p)),
      });
    return z.NEVER;
  });

/** A fault step after loading: the switch and its parameters, defaults filled in (`forMs` in ms). */
export type FaultAction = z.output<typeof FaultStepSchema>;

/**
 * What the client must do after this step, within `within` (judged by the grader, see
 * docs/grading.md): open a new event stream session, or configure one (selecting `topic`).
 */
export const ExpectSchema = z
  .strictObject({
    name: z.string().min(1).optional(),
    that: z.enum(['connected', 'configured'], { error: 'that: is connected or configured' }),
    topic: topic.optional(),
    within: duration,
  })
  .refine((e) => e.topic === undefined || e.that === 'configured', {
    error: 'topic: goes with that: configured',
  })
  .transform(({ name, that, topic: wanted, within }) => ({
    name: name ?? `${that}${wanted === undefined ? '' : ` for ${wanted}`}`,
    that,
    topic: wanted,
    withinMs: within,
  }));

/** An expect step after loading: its name (given, or made from `that` and `topic`) and `within` in ms. */
export type ExpectAction = z.output<typeof ExpectSchema>;

/** One event to emit: its topic, message parts and how it is timestamped. */
export const EmitSchema = z.strictObject({
  topic,
  source: messagePart.optional(),
  key: messagePart.optional(),
  data: messagePart.optional(),
  timestamp: timestamp.optional(),
});

/** A new state for a stateful topic; also the shape of an initial state in `states`. */
export const StateSchema = z.strictObject({
  topic,
  source: messagePart.optional(),
  key: messagePart.optional(),
  data: messagePart,
});

/** Closes the device's event sessions; `disconnect:` with no value uses code 1001. */
export const DisconnectSchema = z
  .strictObject({
    // min/max describe the range to editors (the JSON Schema); the refinements are the close frame's rule.
    code: z
      .number()
      .int()
      .min(1000)
      .max(4999, { error: 'a close code is an integer from 1000 to 4999' })
      .refine(isCloseCode, { error: NOT_A_CLOSE_CODE })
      .optional(),
    reason: z
      .string()
      .max(MAX_CLOSE_REASON_BYTES, { error: `a close reason is at most ${MAX_CLOSE_REASON_BYTES} bytes` })
      .refine((text) => Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES, {
        error: `a close reason is at most ${MAX_CLOSE_REASON_BYTES} bytes of UTF-8`,
      })
      .optional(),
  })
  .nullable()
  .transform((value) => value ?? {});

/**
 * A trigger: run the step's action when a client connects, or when a client's
 * `events:configure` subscribes to a filter that matches the given topic.
 */
export const TriggerSchema = z.union([z.literal('connect'), z.strictObject({ configure: topic })], {
  error: 'on: is `connect` or { configure: <topic> }',
});

/**
 * What a step may do: each action by the key a step names it with, and its schema; a step
 * has exactly one. The step schema, the one-action rule and its message, and the player's
 * table of what each does (./player, where a missing entry is a compile error) all come from
 * here. `steps` (inline steps, which refer to the step itself) is the one action added where
 * the step schema is made, in {@link stepSchema}.
 */
const ACTION_SCHEMAS = {
  emit: EmitSchema,
  set: StateSchema,
  'set-flag': flagMap,
  disconnect: DisconnectSchema,
  'reject-auth': z.strictObject({ for: duration }),
  fault: FaultStepSchema,
  override: OverrideSpecSchema,
  expect: ExpectSchema,
  pause: duration,
  run: z.string({ error: 'run names a group from `groups`' }).min(1),
};

/** A key that says what a step does. */
export type ActionKey = keyof typeof ACTION_SCHEMAS | 'steps';

/** Keys that say what a step does; a step has exactly one (in this order in the messages). */
export const ACTION_KEYS: readonly ActionKey[] = [...(Object.keys(ACTION_SCHEMAS) as ActionKey[]), 'steps'];

const stepBase = z.strictObject({
  at: duration.optional(),
  after: duration.optional(),
  every: duration.optional(),
  times: z.number({ error: 'times is a whole number, 1 or more' }).int().min(1).optional(),
  jitter: duration.optional(),
  ...z.object(ACTION_SCHEMAS).partial().shape,
  on: TriggerSchema.optional(),
});

/** A timeline step after loading: durations in milliseconds, message values as strings. */
export type Step = z.output<typeof stepBase> & { steps?: Step[] };
/** A timeline step as written in a scenario file. */
export type StepInput = z.input<typeof stepBase> & { steps?: StepInput[] };

/** A step inside a group, an inline `steps` list or a trigger: no `on:` allowed. */
export const NestedStepSchema: z.ZodType<Step, StepInput> = z.lazy(() => stepSchema(false)).meta({ id: 'NestedStep' });
/** A step of the top-level timeline: may be an `on:` trigger. */
export const TimelineStepSchema: z.ZodType<Step, StepInput> = z
  .lazy(() => stepSchema(true))
  .meta({ id: 'TimelineStep' });

/**
 * A recording of the `body-worn:` section: a plan recording (../bws/plan) uploaded at
 * scenario time `at`, when it has been recorded. `device` defaults to the camera
 * playing the scenario; `trigger-on` to the scenario's start + at - clips * clip-duration.
 */
export const BodyWornRecordingSchema = z.strictObject({
  at: duration,
  ...PlanRecordingSchema.shape,
  device: z.string({ error: 'device names a camera serial' }).optional(),
});

/** The `body-worn:` section: users and cameras to register, recordings to upload (see ./play-recordings). */
export const BodyWornSchema = z.strictObject(
  {
    users: z.array(PlanUserSchema, { error: 'users is a list of { id, name }' }).optional(),
    devices: z.array(PlanDeviceSchema, { error: 'devices is a list of { serial, name, model }' }).optional(),
    recordings: z.array(BodyWornRecordingSchema, { error: 'recordings is a list of { at, user, clips, ... }' }),
  },
  { error: 'body-worn is a map with users, devices and recordings' },
);

/** A whole scenario file. */
export const ScenarioSchema = z
  .strictObject({
    name: z.string().optional(),
    description: z.string().optional(),
    device: z
      .strictObject({
        serial: z.string().min(1).optional(),
        model: z.string().optional(),
        name: z.string().optional(),
        firmware: z.string().optional(),
      })
      .optional(),
    flags: flagMap.optional(),
    states: z.array(StateSchema, { error: 'states is a list of { topic, source, key, data }' }).optional(),
    groups: z
      .record(z.string().min(1), z.array(NestedStepSchema, { error: 'a group is a list of steps' }), {
        error: 'groups is a map of names to lists of steps',
      })
      .optional(),
    timeline: z.array(TimelineStepSchema, { error: 'timeline is a list of steps' }).optional(),
    loop: z
      .union([z.boolean(), z.strictObject({ times: z.number().int().min(1) })], {
        error: 'loop is true, false or { times: <n> }',
      })
      .optional(),
    'body-worn': BodyWornSchema.optional(),
  })
  .meta({ title: 'bwc-emu scenario', description: 'A scenario for the bwc-emu body worn camera emulator' });

/** A scenario after loading. */
export type Scenario = z.output<typeof ScenarioSchema>;

/** `schema/scenario.schema.json`, for editors (see ../base/json-schema). */
export const SCENARIO_SCHEMA_FILE = schemaFile('scenario.schema.json', ScenarioSchema);
/** A scenario as written in a file. */
export type ScenarioInput = z.input<typeof ScenarioSchema>;
/** The `body-worn:` section after loading. */
export type BodyWorn = z.output<typeof BodyWornSchema>;
/** A recording of the `body-worn:` section after loading (durations in ms, sizes in bytes). */
export type BodyWornRecording = z.output<typeof BodyWornRecordingSchema>;
/** One emitted event after loading. */
export type EmitAction = z.output<typeof EmitSchema>;
/** One state (initial or `set`) after loading. */
export type StateAction = z.output<typeof StateSchema>;
/** A trigger after loading. */
export type Trigger = z.output<typeof TriggerSchema>;

/** Builds the step schema; `topLevel` allows `on:` triggers. */
function stepSchema(topLevel: boolean): z.ZodType<Step, StepInput> {
  return stepBase
    .extend({ steps: z.array(NestedStepSchema, { error: 'steps is a list of steps' }).optional() })
    .check(
      z.superRefine((step: Record<string, unknown>, ctx) => checkStepKeys(step, topLevel, ctx), { when: () => true }),
    );
}

type RefineContext = {
  addIssue(issue: {
    code: 'custom';
    message: string;
    path?: PropertyKey[];
    input?: unknown;
    params?: Record<string, unknown>;
  }): void;
};

/** The combination rules zod objects cannot say: one action, at most one timing, who may have `times`/`jitter`/`on`. */
function checkStepKeys(step: Record<string, unknown>, topLevel: boolean, ctx: RefineContext): void {
  if (typeof step !== 'object' || step === null || Array.isArray(step)) return; // the object schema already said so
  const present = (keys: readonly string[]): string[] => keys.filter((k) => k in step && step[k] !== undefined);
  const onKey = (key: string, message: string): void =>
    ctx.addIssue({ code: 'custom', message, path: [key], input: step[key], params: { at: 'key' } });
  const actions = present(ACTION_KEYS);
  const timings = present(TIMING_KEYS);
  const list = (keys: readonly string[]): string => keys.join(', ');
  if (actions.length === 0) {
    ctx.addIssue({ code: 'custom', message: `a step needs one action: ${list(ACTION_KEYS)}`, input: step });
  }
  for (const extra of actions.slice(1))
    onKey(extra, `a step has one action, but this one has both ${actions[0]} and ${extra}; put them in separate steps`);
  for (const extra of timings.slice(1))
    onKey(extra, `a step has at most one timing key, but this one has both ${timings[0]} and ${extra}`);
  if ('times' in step && !('every' in step)) onKey('times', 'times only goes with every');
  if ('jitter' in step && timings.length === 0) onKey('jitter', 'jitter needs a timing key: at, after or every');
  if ('on' in step) {
    if (!topLevel) onKey('on', 'on: triggers belong in the top-level timeline, not in groups or steps');
    for (const key of ['at', 'every'] as const)
      if (key in step) onKey(key, `a trigger step runs when its trigger fires; use after, not ${key}`);
  }
}
