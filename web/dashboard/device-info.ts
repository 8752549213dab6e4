/** The device's facts, from `/dashboard/device.json` (served with the page, same login). */
import { messageOf } from './format.js';
import { httpProblem, jsonOf, tagged } from './http.js';
import type { DashboardDeviceInfo } from './wire-types.js';

/** Reads device.json; rejects with the HTTP problem, or with what is wrong with the answer. */
export async function fetchDeviceInfo(): Promise<DashboardDeviceInfo> {
  const res = await tagged('/dashboard/device.json');
  if (!res.ok) throw new Error(`device.json: ${await httpProblem(res)}`);
  try {
    return (await jsonOf(res)) as DashboardDeviceInfo;
  } catch (err) {
    throw new Error(`device.json: ${messageOf(err)}`);
  }
}
