/**
 * What the dashboard's `/dashboard/device.json` answers: who the device is and where its
 * interfaces are. Declared once as a zod schema (the page's types are generated from it) with
 * its type inferred; the device does not validate its own answer with it.
 */
import { z } from 'zod';
import { CGI_NAMES, type CgiName } from './cgi-table';

/** A device's request paths: one per CGI of the CGI table (./cgi-table), and the event stream. */
const DevicePathsSchema = z.object({
  ...(Object.fromEntries(CGI_NAMES.map((name) => [name, z.string()])) as Record<CgiName, z.ZodString>),
  eventStream: z.string(),
});

/** `/dashboard/device.json`. */
export const DashboardDeviceInfoSchema = z.object({
  serial: z.string(),
  realm: z.string(),
  identity: z.object({ model: z.string(), name: z.string(), firmware: z.string(), brand: z.string() }),
  /** Epoch ms the device started; with `now`, its uptime. */
  startedAt: z.number().meta({ description: 'epoch ms the device started; with `now`, its uptime' }),
  /** Epoch ms on the device's clock when this was answered. */
  now: z.number().meta({ description: "epoch ms on the device's clock when this was answered" }),
  paths: DevicePathsSchema,
  /** Where the control API is (`/_emu`), null when it is off. */
  control: z.string().nullable().meta({ description: 'where the control API is (`/_emu`), null when it is off' }),
});

/** What `/dashboard/device.json` answers. */
export type DashboardDeviceInfo = z.output<typeof DashboardDeviceInfoSchema>;
