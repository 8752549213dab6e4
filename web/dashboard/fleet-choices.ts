/**
 * What the fleet's device picker offers (./fleet-picker draws it): each device's serial and
 * where it is, `ACCC8E000002 (127.1.0.2:80)` when the devices are at addresses of their own
 * (address mode) and `ACCC8E000002 (port 8081)` when they share one (ports mode); and, for a
 * fleet too big for one list (which the control API searches: ./fleet-pages), a bounded first
 * list with this page's device in it. Pure (no DOM): unit-tested.
 */

/** A device as the picker offers it. */
export interface FleetChoice {
  serial: string;
  /** The device's base URL, where Open goes. */
  base: string;
  /** `ACCC8E000002 (127.1.0.2:80)`. */
  label: string;
  /** What typing is matched against: the label in lower case. */
  key: string;
}

/** What the picker shows for a query. */
export interface ShownChoices {
  shown: FleetChoice[];
  /** How many devices match (all of them for an empty query); more than `shown` when cut. */
  matched: number;
}

/** A fleet of more devices than this is searched, its list cut to this many (a list of 100,000 is no list). */
export const MAX_SHOWN_CHOICES = 200;

/** A device as `GET /devices` answers it, the part the picker reads. */
type ListedDevice = { serial: string; urls: Record<string, string> };

/** Whether `devices` are at addresses of their own (address mode): two of them differ in host. */
export function placedByAddress(devices: readonly ListedDevice[]): boolean {
  const hosts = devices.map((d) => new URL(d.urls.base).hostname);
  return hosts.some((host) => host !== hosts[0]);
}

/**
 * The choices of `devices` (the control API's `GET /devices`), in the fleet's order; `byAddress`
 * as the whole fleet is placed (a page of a big fleet, one device, cannot tell by itself).
 */
export function fleetChoices(devices: readonly ListedDevice[], byAddress = placedByAddress(devices)): FleetChoice[] {
  const places = devices.map((d) => new URL(d.urls.base));
  return devices.map((d, i) => {
    const place = places[i];
    const where = byAddress
      ? `${place.hostname}:${place.port || defaultPort(place)}`
      : `port ${place.port || defaultPort(place)}`;
    const label = `${d.serial} (${where})`;
    return { serial: d.serial, base: d.urls.base, label, key: label.toLowerCase() };
  });
}

/**
 * The choices matching `query` (any part of the serial or the address, any case), at most
 * `max` in the fleet's order; with an empty query the first ones, and `current` (this page's
 * device) among them, first if it would be cut.
 */
export function shownChoices(
  choices: readonly FleetChoice[],
  query: string,
  current: string,
  max = MAX_SHOWN_CHOICES,
): ShownChoices {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = words.length === 0 ? choices : choices.filter((c) => words.every((w) => c.key.includes(w)));
  const shown = matches.slice(0, max);
  if (words.length === 0 && !shown.some((c) => c.serial === current)) {
    const mine = choices.find((c) => c.serial === current);
    if (mine) {
      if (shown.length === max) shown.pop();
      shown.unshift(mine);
    }
  }
  return { shown, matched: matches.length };
}

/**
 * The first list of a fleet too big to fetch whole (`total` devices): its first `page` of
 * choices with `mine` (this page's device) among them, first if it is not in the page.
 */
export function firstPageChoices(
  page: readonly FleetChoice[],
  mine: FleetChoice | undefined,
  total: number,
  max = MAX_SHOWN_CHOICES,
): ShownChoices {
  const choices = mine && !page.some((c) => c.serial === mine.serial) ? [...page, mine] : page;
  return { shown: shownChoices(choices, '', mine?.serial ?? '', max).shown, matched: total };
}

/** The port a URL without one is at: 443 for https, 80 otherwise. */
function defaultPort(url: URL): string {
  return url.protocol === 'https:' ? '443' : '80';
}
