/**
 * The device's beta feature flags: definitions, current values, all-or-nothing
 * updates, and optional persistence in a state file that is always whole.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../base/atomic-file';
import { err, type Err, type ErrorInfo, ok, type Result } from '../base/result';

/** One flag as `listAll` reports it (and the control API, and the dashboard). */
export const FlagStateSchema = z.object({
  name: z.string(),
  value: z.boolean(),
  description: z.string(),
  defaultValue: z.boolean(),
});

/** One flag as `listAll` reports it. */
export type FlagState = z.output<typeof FlagStateSchema>;

/**
 * One flag as configured: its name, what it does, its default, and optionally its value at
 * start (a cloned device's flags start as the original's were).
 */
export type FlagDefinition = Omit<FlagState, 'value'> & { readonly value?: boolean };

/** A realistic built-in set, in the style of real devices' flag names. */
export const DEFAULT_FLAGS: readonly FlagDefinition[] = [
  {
    name: 'restrictRootAccess',
    description: 'Restrict the root account to local configuration only',
    defaultValue: false,
  },
  {
    name: 'selected_metadata_events',
    description: 'Send only the selected metadata events on the event stream',
    defaultValue: false,
  },
  { name: 'graphics_udvd', description: 'Use the new graphics overlay renderer', defaultValue: false },
  {
    name: 'bwc_prerecord_extended',
    description: 'Extend the pre-recording buffer from 30 to 120 seconds',
    defaultValue: false,
  },
  {
    name: 'bwc_gnss_track_upload',
    description: 'Upload the GNSS track of each recording with the clips',
    defaultValue: true,
  },
  {
    name: 'ws_data_stream_compression',
    description: 'Offer per-message deflate on the event stream',
    defaultValue: false,
  },
];

/** Names of flags the device does not have; the message is the one the device answers with. */
export interface UnknownFlags extends ErrorInfo<'FLAG_NOT_FOUND'> {
  readonly unknown: string[];
}

/** Outcome of a lookup or update: the value, or the names that do not exist. */
export type FlagResult<T> = Result<T, UnknownFlags>;

/** Flag definitions by name, in definition order; read only. */
type Definitions = ReadonlyMap<string, FlagDefinition>;

/**
 * The definitions as a map, copied so that a caller changing its definitions later changes no
 * device, and shared by the devices whose definitions are alike (a fleet's, up to 100,000): a
 * map of a device's flags costs about 0.5 KB. Kept for {@link MAX_SHARED_DEFINITIONS} distinct
 * lists; past that each device has its own.
 */
function definitionsOf(list: readonly FlagDefinition[]): Definitions {
  const key = JSON.stringify(list.map((d) => [d.name, d.defaultValue, d.description]));
  const known = sharedDefinitions.get(key);
  if (known) return known;
  const made: Definitions = new Map(
    list.map((d) => [
      d.name,
      Object.freeze({ name: d.name, description: d.description, defaultValue: d.defaultValue }),
    ]),
  );
  if (sharedDefinitions.size < MAX_SHARED_DEFINITIONS) sharedDefinitions.set(key, made);
  return made;
}

/** The definition maps made so far, by their lists' content. */
const sharedDefinitions = new Map<string, Definitions>();
const MAX_SHARED_DEFINITIONS = 100;

/** Flag values for one device; writes `stateFile` (if any) after every change. */
export class FeatureFlags {
  private readonly definitions: Definitions;
  /** The values set since the defaults (made on the first): a device never set keeps none. */
  private values: Map<string, boolean> | undefined = undefined;
  /** The last state file write queued; the next one starts after it. */
  private writing: Promise<void> | undefined = undefined;

  /**
   * @param definitions the flags the device has
   * @param stateFile a JSON file that keeps values across restarts, or undefined
   * @param onLoadProblem told when the state file exists but cannot be used
   */
  constructor(
    definitions: readonly FlagDefinition[],
    private readonly stateFile?: string,
    onLoadProblem: (message: string) => void = () => {},
  ) {
    this.definitions = definitionsOf(definitions);
    for (const def of definitions)
      if (def.value !== undefined && def.value !== def.defaultValue) this.setValue(def.name, def.value);
    if (stateFile) this.load(stateFile, onLoadProblem);
  }

  /** Every flag with its value, in definition order. */
  list(): FlagState[] {
    return [...this.definitions.values()].map((def) => ({
      name: def.name,
      value: this.current(def.name),
      description: def.description,
      defaultValue: def.defaultValue,
    }));
  }

  /** Values of the named flags; fails listing every unknown name. */
  get(names: readonly string[]): FlagResult<Record<string, boolean>> {
    const unknown = names.filter((n) => !this.definitions.has(n));
    if (unknown.length > 0) return unknownFlags(unknown);
    return ok(Object.fromEntries(names.map((n) => [n, this.current(n)])));
  }

  /** Sets flags all-or-nothing: one unknown name and nothing changes. */
  async set(changes: Readonly<Record<string, boolean>>): Promise<FlagResult<void>> {
    const unknown = Object.keys(changes).filter((n) => !this.definitions.has(n));
    if (unknown.length > 0) return unknownFlags(unknown);
    for (const [name, value] of Object.entries(changes)) this.setValue(name, value);
    if (this.stateFile) await this.save(this.stateFile);
    return ok(undefined);
  }

  /** Every flag back to its default value (kept in the state file too, when there is one). */
  async reset(): Promise<void> {
    this.values = undefined;
    if (this.stateFile) await this.save(this.stateFile);
  }

  /** The current value of a defined flag. */
  private current(name: string): boolean {
    return this.values?.get(name) ?? (this.definitions.get(name) as FlagDefinition).defaultValue;
  }

  private setValue(name: string, value: boolean): void {
    (this.values ??= new Map()).set(name, value);
  }

  /**
   * Writes one at a time, each with the values current when it starts: concurrent
   * atomic writes could otherwise rename out of order and leave older values on disk.
   */
  private save(file: string): Promise<void> {
    const write = (this.writing ?? Promise.resolve()).then(() =>
      writeFileAtomic(file, `${JSON.stringify(this.allValues(), null, 2)}\n`),
    );
    this.writing = write.catch(() => {}); // a failed write does not block the next one
    return write;
  }

  private load(file: string, onProblem: (message: string) => void): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        onProblem(`cannot read ${file}: ${(err as Error).message}; using defaults`);
      return;
    }
    let saved: unknown;
    try {
      saved = JSON.parse(text);
    } catch (err) {
      onProblem(`${file} is not valid JSON (${(err as Error).message}); using defaults`);
      return;
    }
    if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) {
      onProblem(`${file} is not a JSON object; using defaults`);
      return;
    }
    for (const [name, value] of Object.entries(saved)) {
      if (!this.definitions.has(name)) onProblem(`${file}: flag "${name}" is no longer defined; ignored`);
      else if (typeof value !== 'boolean') onProblem(`${file}: flag "${name}" is not a boolean; ignored`);
      else this.setValue(name, value);
    }
  }

  /** Every flag's value by name, in definition order (what the state file holds). */
  private allValues(): Record<string, boolean> {
    return Object.fromEntries([...this.definitions.keys()].map((name) => [name, this.current(name)]));
  }
}

function unknownFlags(unknown: string[]): Err<UnknownFlags> {
  return err({ code: 'FLAG_NOT_FOUND', message: `Flag(s) does not exist: ${unknown.join(', ')}`, unknown });
}
