/**
 * Pages of the fleet's devices from the control API (`GET /devices?q=&limit=`): a fleet of
 * 100,000 is searched by the emulator, a page at a time, never downloaded whole by the page.
 */
import type { ControlApi } from './control.js';
import { jsonOf, problemOf } from './http.js';
import type { DeviceAccess } from './wire-types.js';

/** A page of devices, and how many match in all (the answer's `X-Total-Count`). */
export interface DevicePage {
  devices: DeviceAccess[];
  total: number;
}

/** At most `limit` devices whose serial or address contains every word of `query` (empty: the first ones). */
export async function fetchDevicePage(control: ControlApi, query: string, limit: number): Promise<DevicePage> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (query.trim() !== '') params.set('q', query.trim());
  const res = await control.fetch(`/devices?${params.toString()}`);
  if (!res.ok) throw new Error(await problemOf(res));
  const devices = (await jsonOf(res)) as DeviceAccess[];
  const total = Number(res.headers.get('X-Total-Count') ?? Number.NaN);
  return { devices, total: Number.isInteger(total) ? total : devices.length };
}
