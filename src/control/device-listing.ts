/**
 * Which devices `GET /_emu/devices` answers: those matching `q` (by serial or address), a page
 * of them (`offset`, `limit`). Matched and cut on each device's serial, host and port, which
 * are cheap to read, before any device's access is made: a fleet of 100,000 answers a page of
 * 200 without building 100,000 access objects.
 */
import { z } from 'zod';
import type { ListedDevice } from './controlled-emulator';

/** The most devices one page answers. */
export const MAX_DEVICES_LIMIT = 10_000;

/** A whole number as a query parameter gives it: decimal digits only (`1e3`, `-1`, ` 1`, `0x10` are refused). */
function wholeNumber(what: string) {
  return z
    .string()
    .regex(/^\d{1,15}$/, { error: `expected ${what}: 1 to 15 decimal digits` })
    .transform(Number);
}

/** `?q=&offset=&limit=` of `GET /_emu/devices`. */
export const DevicesQuerySchema = z.strictObject({
  q: z.string().max(200).optional().meta({
    description:
      'only the devices whose serial or `host:port` contains every word of it (words separated by spaces), any case',
  }),
  offset: wholeNumber('a number of devices to skip')
    .optional()
    .meta({ description: 'skip this many matching devices (default 0)' }),
  limit: wholeNumber(`a number of devices from 1 to ${MAX_DEVICES_LIMIT}`)
    .pipe(z.number().min(1).max(MAX_DEVICES_LIMIT))
    .optional()
    .meta({ description: `answer at most this many devices, 1 to ${MAX_DEVICES_LIMIT} (default: every one)` }),
});

/** The parsed query. */
export type DevicesQuery = z.output<typeof DevicesQuerySchema>;

/** A page of the matching devices, and how many devices match in all. */
export interface DevicePage {
  readonly devices: readonly ListedDevice[];
  readonly total: number;
}

/** The words of `q`, lower case; none for no query. */
function wordsOf(q: string | undefined): string[] {
  return (q ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
}

/** Whether `device`'s serial or `host:port` contains every one of `words`. */
function matches(device: ListedDevice['device'], words: readonly string[]): boolean {
  // A space between them: no word (words have none) spans the serial and the address.
  const key = `${device.serial} ${device.host}:${device.port}`.toLowerCase();
  return words.every((word) => key.includes(word));
}

/** The page of `devices` that `query` asks for, in the fleet's order. */
export function devicePage(devices: readonly ListedDevice[], query: DevicesQuery): DevicePage {
  const words = wordsOf(query.q);
  const from = query.offset ?? 0;
  const to = query.limit === undefined ? Infinity : from + query.limit;
  if (words.length === 0) return { devices: devices.slice(from, to), total: devices.length };
  const page: ListedDevice[] = [];
  let total = 0;
  for (const listed of devices) {
    if (!matches(listed.device, words)) continue;
    if (total >= from && total < to) page.push(listed);
    total++;
  }
  return { devices: page, total };
}
