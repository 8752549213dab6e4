/**
 * The upload plan: which users and cameras the body worn system registers and which
 * recordings it uploads. A YAML file checked like a scenario (file:line:col errors,
 * `schema/plan.schema.json` for editors), or `generate:` for volume. {@link expandPlan}
 * turns it into concrete recordings: container names, times, clips, metadata.
 *
 * ```yaml
 * users:   [ { id: officer_1, name: Alex Smith } ]
 * devices: [ { serial: AABBCCDD1234, name: Camera 1, model: W110 } ]
 * recordings:
 *   - { user: officer_1, device: AABBCCDD1234, trigger-on: 2026-11-23T10:15:00Z, clips: 2, clip-duration: 30s, clip-size: 5MB,
 *       bookmarks: [ { at: 12s, category: "1", tags: { plate: ABC123 } } ], gps: true }
 * ```
 */
import { z } from 'zod';
import { DurationSchema } from '../base/duration';
import {
  type Found,
  loadYaml,
  loadYamlFile,
  valueOffset,
  type YamlErrorCode,
  type YamlLoadResult,
} from '../base/yaml-load';
import { parseSize } from '../base/size';
import { schemaFile } from '../base/json-schema';

const size = z
  .union([z.number().int().positive(), z.string()], { error: 'expected a size like 5MB, 512KiB or a number of bytes' })
  .transform((value, ctx) => {
    if (typeof value === 'number') return value;
    const bytes = parseSize(value, 'size');
    if (bytes.ok) return bytes.value;
    ctx.addIssue({ code: 'custom', message: bytes.error.message.replace(/^size /, ''), input: value });
    return z.NEVER;
  });

const time = z
  .string({ error: 'expected an RFC 3339 UTC time like 2026-11-23T10:15:00Z' })
  .refine((text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(text) && realTime(text), {
    error: (iss) => `"${String(iss.input)}" is not an RFC 3339 UTC time like 2026-11-23T10:15:00Z`,
  })
  .transform((text) => Date.parse(text));

const id = (what: string) =>
  z.string({ error: `${what} is a string` }).regex(/^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/, {
    error: `${what} is 1-64 letters, digits, _ . @ - (it becomes part of object and container names)`,
  });

/** A user to register. */
export const PlanUserSchema = z.strictObject({
  id: id('a user id'),
  name: z.string().min(1).max(200),
  active: z.boolean().default(true),
});

/** A camera to register. */
export const PlanDeviceSchema = z.strictObject({
  serial: z.string().regex(/^[A-Za-z0-9]{1,32}$/, { error: 'a serial number is 1-32 letters and digits' }),
  name: z.string().min(1).max(200),
  model: z.string().min(1).max(64).default('W110'),
  firmware: z.string().max(64).default('11.11.73'),
  active: z.boolean().default(true),
});

/** A bookmark in a recording, `at` from the recording's start. */
export const BookmarkSchema = z.strictObject({
  at: DurationSchema,
  length: DurationSchema.optional(),
  category: z.string().default('1'),
  tags: z.record(z.string(), z.union([z.string(), z.number()]).transform(String)).default({}),
});

/** A GNSS point, `at` from the recording's start. */
export const GpsPointSchema = z.strictObject({
  at: DurationSchema,
  lat: z.number().min(-90).max(90),
  lon: z.number().min(-180).max(180),
});

/** One recording to upload. */
export const PlanRecordingSchema = z.strictObject({
  user: z.string({ error: 'user names a user id' }),
  device: z.string({ error: 'device names a camera serial' }),
  'trigger-on': time.optional(),
  'trigger-on-reason': z.string().default('Button'),
  'trigger-off-reason': z.string().default('Button'),
  clips: z.number().int().min(1).max(1000).default(1),
  'clip-duration': DurationSchema.default(30_000),
  'clip-size': size.default(1024 * 1024),
  bookmarks: z.array(BookmarkSchema).default([]),
  gps: z.union([z.boolean(), z.array(GpsPointSchema)]).default(false),
  timezone: z.string().default('Europe/Stockholm'),
});

/** Volume without listing: users, cameras and recordings made up from a seed. */
export const GenerateSchema = z.strictObject({
  users: z.number().int().min(1).max(100_000),
  devices: z.number().int().min(1).max(100_000),
  recordings: z.number().int().min(0).max(1_000_000),
  clips: z.number().int().min(1).max(1000).default(1),
  'clip-size': size.default(1024 * 1024),
  'clip-duration': DurationSchema.default(30_000),
});

/** A whole plan file. */
export const PlanSchema = z
  .strictObject({
    name: z.string().optional(),
    system: z.strictObject({ id: id('a system id'), name: z.string().min(1).max(200) }).optional(),
    users: z.array(PlanUserSchema).default([]),
    devices: z.array(PlanDeviceSchema).default([]),
    recordings: z.array(PlanRecordingSchema).default([]),
    generate: GenerateSchema.optional(),
  })
  .meta({ title: 'bwc-emu upload plan', description: 'Users, cameras and recordings for bwc-emu upload' });

/** A plan after loading. */
export type Plan = z.output<typeof PlanSchema>;

/** `schema/plan.schema.json`, for editors (see ../base/json-schema). */
export const PLAN_SCHEMA_FILE = schemaFile('plan.schema.json', PlanSchema);
/** A plan as written. */
export type PlanInput = z.input<typeof PlanSchema>;
/** A recording of a plan after loading. */
export type PlanRecording = z.output<typeof PlanRecordingSchema>;

/** Problems a plan file can have beyond the schema's. */
export type PlanErrorCode = YamlErrorCode | 'UNKNOWN_USER' | 'UNKNOWN_DEVICE' | 'DUPLICATE_RECORDING';

/** The outcome of loading a plan: the plan, or every error found in it, in file order (`error.errors`). */
export type LoadPlanResult = YamlLoadResult<Plan, PlanErrorCode>;

/** Parses and checks plan text; never throws for bad input. */
export function loadPlan(text: string, fileName: string): LoadPlanResult {
  return loadYaml(text, fileName, PlanSchema, checkReferences);
}

/** Reads and loads a plan file. */
export function loadPlanFile(path: string): Promise<LoadPlanResult> {
  return loadYamlFile(path, 'plan file', PlanSchema, checkReferences);
}

/** The built-in plan: two officers, two cameras, three short recordings with bookmarks and GPS. */
export const DEFAULT_PLAN: PlanInput = {
  name: 'default',
  system: { id: 'bwc-emu-system', name: 'bwc-emu body worn system' },
  users: [
    { id: 'officer_1', name: 'Alex Smith' },
    { id: 'officer_2', name: 'Sam Jones' },
  ],
  devices: [
    { serial: 'AABBCCDD1234', name: 'Camera 1', model: 'W110' },
    { serial: 'AABBCCDD1235', name: 'Camera 2', model: 'W110' },
  ],
  recordings: [
    {
      user: 'officer_1',
      device: 'AABBCCDD1234',
      clips: 2,
      'clip-duration': '30s',
      'clip-size': '2MB',
      bookmarks: [{ at: '12s', category: '1', tags: { plate: 'ABC123' } }],
      gps: true,
    },
    { user: 'officer_2', device: 'AABBCCDD1235', clips: 1, 'clip-duration': '45s', 'clip-size': '3MB' },
    {
      user: 'officer_1',
      device: 'AABBCCDD1234',
      clips: 3,
      'clip-duration': '20s',
      'clip-size': '1MB',
      'trigger-on-reason': 'Holster',
    },
  ],
};

/** True when the date and time exist (Date.parse rolls `02-30` over into March). */
function realTime(text: string): boolean {
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === text.slice(0, 19);
}

/** Every user and device a recording names must be in the plan (generated plans are complete by construction). */
function checkReferences(
  doc: Parameters<typeof valueOffset>[0],
  _data: unknown,
  plan: Plan | undefined,
): Found<PlanErrorCode>[] {
  if (!plan) return [];
  const found: Found<PlanErrorCode>[] = [];
  const users = new Set(plan.users.map((u) => u.id));
  const devices = new Set(plan.devices.map((d) => d.serial));
  const containers = new Map<string, number>();
  plan.recordings.forEach((recording, i) => {
    const trigger = recording['trigger-on'];
    if (trigger !== undefined) {
      const key = `${recording.user}_${recording.device}_${Math.floor(trigger / 1000)}`;
      const first = containers.get(key);
      if (first !== undefined)
        found.push({
          code: 'DUPLICATE_RECORDING',
          offset: valueOffset(doc, ['recordings', i, 'trigger-on']),
          message: `recordings ${first + 1} and ${i + 1} have the same user, device and trigger-on second, so they would share one container`,
        });
      else containers.set(key, i);
    }
    if (!users.has(recording.user))
      found.push({
        code: 'UNKNOWN_USER',
        offset: valueOffset(doc, ['recordings', i, 'user']),
        message: `user "${recording.user}" is not in users: (${[...users].join(', ') || 'none'})`,
      });
    if (!devices.has(recording.device))
      found.push({
        code: 'UNKNOWN_DEVICE',
        offset: valueOffset(doc, ['recordings', i, 'device']),
        message: `device "${recording.device}" is not in devices: (${[...devices].join(', ') || 'none'})`,
      });
  });
  return found;
}
