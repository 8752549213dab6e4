/** The device's facts, from `/dashboard/device.json` (served with the page, same login). */
import { httpProblem, tagged } from './http.js';
import type { DeviceInfo } from './types.js';

/** Reads device.json; rejects with the HTTP problem. */
export async function fetchDeviceInfo(): Promise<DeviceInfo> {
  const res = await tagged('/dashboard/device.json');
  if (!res.ok) throw new Error(`device.json: ${await httpProblem(res)}`);
  return (await res.json()) as DeviceInfo;
}
