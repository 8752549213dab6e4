/**
 * The Host names a server answers its dashboard and control API under, against DNS
 * rebinding: a page served from a name its author controls, made to resolve to 127.0.0.1
 * once the page has loaded, sends its requests to the loopback port with
 * `Host: evil.example:8080` (and `Origin: http://evil.example:8080`, so that to the
 * browser and to the origin guard it is a page of the same origin). The server's own names
 * are the loopback ones (`localhost`, `*.localhost`, 127.x.y.z, ::1), the address it listens
 * on and the names the user allows (`--allowed-host`); any other is refused. Listening on
 * every address (0.0.0.0, ::), any IP address is one of its own: an address literal cannot
 * be rebound. As webpack-dev-server's and Vite's `allowedHosts` do.
 */
import { isIP } from 'node:net';

/** The names a server is reached under, as {@link hostAllowList} makes them. */
export interface HostAllowList {
  /** Exact names (lower case, no trailing dot, IPv6 without brackets): the listen address and allowed names. */
  readonly names: ReadonlySet<string>;
  /** From an allowed `.example.test`: `example.test` and every name under it. */
  readonly suffixes: readonly string[];
  /** Listening on every address: any IP address literal is one of the server's. */
  readonly anyAddress: boolean;
}

/** Addresses that mean "every address" when listened on. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** A name an `--allowed-host` may give: DNS labels (letters, digits, `-`, `_`), an optional leading dot. */
const NAME = /^\.?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;

/**
 * The allow list of a server listening on `listenHost` with `allowed` names (checked first
 * with {@link allowedHostProblem}); the loopback names are always in.
 */
export function hostAllowList(listenHost: string, allowed: readonly string[] = []): HostAllowList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const listen = normalName(listenHost);
  const anyAddress = listen === undefined || WILDCARDS.has(listen);
  if (!anyAddress) names.add(listen);
  for (const entry of allowed) {
    const name = normalName(entry);
    if (name === undefined) continue;
    if (name.startsWith('.')) suffixes.push(name.slice(1));
    else names.add(name);
  }
  return { names, suffixes, anyAddress };
}

/** Why `entry` cannot be an allowed host name (a name, `.name` for it and the names under it, or an IP address). */
export function allowedHostProblem(entry: string): string | undefined {
  const name = normalName(entry);
  if (name === undefined || (isIP(name) === 0 && !NAME.test(name)))
    return `allowed host "${entry.slice(0, 100)}" must be a host name (letters, digits, '-', '.'; a leading '.' takes the names under it too) or an IP address, without a port`;
  return undefined;
}

/**
 * Whether a request with this `Host` header is for one of the server's own names: any port,
 * any case, a trailing dot, IPv6 in brackets. A request without the header (HTTP/1.0) is
 * allowed: a browser always sends one, so it is no rebinding page. A malformed one is not.
 */
export function isAllowedHost(host: string | undefined, list: HostAllowList): boolean {
  if (host === undefined) return true;
  const name = hostnameOf(host);
  if (name === undefined) return false;
  if (isLoopbackName(name) || list.names.has(name)) return true;
  if (list.anyAddress && isIP(name) !== 0) return true;
  return list.suffixes.some((suffix) => name === suffix || name.endsWith(`.${suffix}`));
}

/** The host name of a `Host` header value (lower case, no trailing dot, IPv6 unbracketed); undefined when malformed. */
export function hostnameOf(host: string): string | undefined {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^[\]:\s/\\@?#]+))(?::(\d{0,5}))?$/.exec(host.trim());
  if (!match) return undefined;
  const [, v6, name, port] = match;
  if (port !== undefined && port !== '' && Number(port) > 65535) return undefined;
  if (v6 !== undefined) return isIP(v6) === 6 ? normalIpv6(v6) : undefined;
  return normalName(name);
}

/** `localhost`, a name under `.localhost` (RFC 6761), 127.0.0.0/8, ::1 or an IPv4-mapped 127.x address. */
function isLoopbackName(name: string): boolean {
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (name === '::1') return true;
  // ::ffff:7f00:1 (as a URL parser writes ::ffff:127.0.0.1): the first byte of the IPv4 part is 127.
  const mapped = /^::ffff:([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(name);
  return mapped !== null && parseInt(mapped[1], 16) >> 8 === 127;
}

/** A name or address in the form compared: lower case, one trailing dot and IPv6 brackets gone; undefined when empty. */
function normalName(entry: string): string | undefined {
  let name = entry.trim().toLowerCase();
  if (name.startsWith('[') && name.endsWith(']')) name = name.slice(1, -1);
  if (name.endsWith('.') && name.length > 1) name = name.slice(0, -1);
  if (isIP(name) === 6) return normalIpv6(name);
  return name === '' ? undefined : name;
}

/** An IPv6 address in its one short form (`0:0:0:0:0:0:0:1` -> `::1`), as the URL parser writes it. */
function normalIpv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}
