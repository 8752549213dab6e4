/**
 * The route table of the control API: every route once, and with fleet routes each
 * per-device route again under `/devices/{serial}`, acting on the device named there.
 * Both the router and the OpenAPI document are made from it. A route file's list that is not
 * spread here is neither served nor documented: test/unit/control/route-table.test.ts says so.
 */
import { z } from 'zod';
import { refusalDocs } from './control-codes';
import { DEVICE_ROUTES } from './device-routes';
import { FAULT_ROUTES } from './fault-routes';
import { FEED_ROUTES } from './feed-route';
import { JOURNAL_ROUTES } from './journal-routes';
import { OVERRIDE_ROUTES } from './override-routes';
import { REPORT_ROUTES } from './report-routes';
import type { ControlRoute } from './route';
import { SCENARIO_ROUTES } from './scenario-routes';
import { SEGMENT_ROUTES } from './segment-routes';
import { SERVICE_ROUTES } from './service-routes';
import { WAIT_ROUTES } from './wait-routes';

/** Every route, each once, acting on the device of the port it is served on. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...SERVICE_ROUTES,
  ...DEVICE_ROUTES,
  ...FAULT_ROUTES,
  ...OVERRIDE_ROUTES,
  ...JOURNAL_ROUTES,
  ...REPORT_ROUTES,
  ...SEGMENT_ROUTES,
  ...SCENARIO_ROUTES,
  ...FEED_ROUTES,
  ...WAIT_ROUTES,
];

/** The path parameter of the fleet routes. */
const SerialParamsSchema = z.strictObject({
  serial: z.string().min(1).meta({ description: 'serial of the device to act on', example: 'ACCC8E000002' }),
});

/** `route` under `/devices/{serial}`, acting on the device named there. */
export function fleetRoute(route: ControlRoute): ControlRoute {
  return {
    ...route,
    path: `/devices/{serial}${route.path}`,
    params: SerialParamsSchema,
    refusals: { ...route.refusals, ...refusalDocs('NO_SUCH_DEVICE') },
  };
}

/** The routes a router serves: all of them, and with `fleet` the per-device ones under `/devices/{serial}` too. */
export function controlRoutes(fleet: boolean): ControlRoute[] {
  if (!fleet) return [...CONTROL_ROUTES];
  return [...CONTROL_ROUTES, ...CONTROL_ROUTES.filter((route) => route.perDevice).map(fleetRoute)];
}
