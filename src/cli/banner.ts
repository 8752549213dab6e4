/** The start-up banners: what a newcomer needs to see when a device or a destination runs. */
import type { DestinationHandle } from '../destination/destination';
import type { EmulatedDevice } from '../emulator';
import type { ConnectionFile } from '../protocol/connection-file';
import type { Scenario } from '../scenario/schema';

/** Where the scenario's `body-worn:` recordings go, for the banner; undefined when it has none. */
function recordingsLine(scenario: Scenario, connection: ConnectionFile | undefined): string | undefined {
  const count = scenario['body-worn']?.recordings.length;
  if (count === undefined) return undefined;
  return connection
    ? `${count} to upload to ${connection.AuthenticationTokenURI[0]} as the scenario plays`
    : `${count} in the scenario, not uploaded (no --connection-file)`;
}

/** `motion (scenarios/motion.yaml, speed 10)`. */
function scenarioLabel(name: string, file: string | undefined, speed: number): string {
  const details = [file, speed !== 1 ? `speed ${speed}` : undefined].filter((d) => d !== undefined);
  return details.length ? `${name} (${details.join(', ')})` : name;
}

/** More devices than this get one table instead of a banner each. */
const MAX_FULL_BANNERS = 3;

/**
 * What a newcomer needs of the running devices: a banner each (where it is, how to log in,
 * one command to try), or for a fleet one table of serials and URLs and the commands once.
 */
export function devicesBanner(
  devices: readonly EmulatedDevice[],
  speed: number,
  connection: ConnectionFile | undefined,
): string {
  if (devices.length <= MAX_FULL_BANNERS) return devices.map((d) => deviceBanner(d, speed, connection)).join('');
  const first = devices[0];
  const labels = [
    ...new Set(devices.map((d) => scenarioLabel(d.scenario.name ?? d.file ?? 'scenario', d.file, speed))),
  ];
  const width = Math.max(...devices.map((d) => d.device.serial.length), 'serial'.length);
  const lines: (string | undefined)[] = [
    '',
    warning(first),
    `bwc-emu: ${devices.length} devices are running, each with this login and its own port`,
    ...accessLines(first, true),
    `  scenario       ${labels.length === 1 ? labels[0] : `${labels.length} different ones`}`,
    '',
    `  ${'serial'.padEnd(width)}  url`,
    ...devices.map((d) => `  ${d.device.serial.padEnd(width)}  ${d.device.url}`),
    '',
    ...tryLines(first, ` (on ${first.device.serial})`),
  ];
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}

/** The banner of one device. */
export function deviceBanner(running: EmulatedDevice, speed: number, connection: ConnectionFile | undefined): string {
  const { device, file } = running;
  const scenario = scenarioLabel(running.scenario.name ?? file ?? 'scenario', file, speed);
  const recordings = recordingsLine(running.scenario, connection);
  const urls = device.urls;
  const lines: (string | undefined)[] = [
    '',
    warning(running),
    `bwc-emu: device ${device.serial} is running`,
    `  url            ${device.url}`,
    ...accessLines(running, false),
    `  feature flags  POST ${urls.featureFlags}`,
    `  session token  GET  ${urls.sessionToken}`,
    `  discovery      POST ${urls.apiDiscovery}, basicdeviceinfo.cgi, GET param.cgi`,
    `  event stream   ${urls.eventStream}`,
    `  scenario       ${scenario}`,
    recordings === undefined ? undefined : `  recordings     ${recordings}`,
    '',
    ...tryLines(running, ''),
  ];
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}

/** The warning when authentication is off, else undefined. */
function warning(running: EmulatedDevice): string | undefined {
  return running.device.options.auth === 'none'
    ? 'WARNING: authentication is OFF (--auth none): anyone who can reach this port has full access.'
    : undefined;
}

/** The login, the schemes, the control API (`fleet`: of every device, not just this one). */
function accessLines(running: EmulatedDevice, fleet: boolean): (string | undefined)[] {
  const { device, access } = running;
  const o = device.options;
  const admin = o.accounts[0];
  const authLine =
    o.auth === 'none'
      ? 'none: every request is served, no login asked (--auth none)'
      : `${o.auth === 'basic' ? 'basic' : `digest (${o.digestAlgorithms.join(', ')})${o.auth === 'both' ? ' or basic' : ''}`}, realm ${fleet ? `of each device (${device.realm} on the first)` : device.realm}`;
  const control = fleet ? 'URL/_emu of each device' : access.control;
  return [
    o.auth === 'none'
      ? undefined
      : `  credentials    ${admin?.name} / ${admin?.password} (admin)${o.accounts.length > 1 ? ` and ${o.accounts.length - 1} more account(s)` : ''}`,
    `  auth           ${authLine}`,
    access.control === undefined ? undefined : `  control API    ${control}`,
  ];
}

/** Commands to try against `running` (`where` says which device, for a fleet), and how to stop. */
function tryLines(running: EmulatedDevice, where: string): string[] {
  const { device } = running;
  const o = device.options;
  const admin = o.accounts[0];
  const insecure = device.certificate ? ' -k' : '';
  const { featureFlags: flagsUrl, sessionToken: tokenUrl, eventStream: streamUrl } = device.urls;
  const curlAuth = `${insecure} --digest -u ${admin?.name}:${admin?.password}`;
  return [
    `Try the feature flags${where}:`,
    `  curl${o.auth === 'none' ? insecure : curlAuth} -H 'Content-Type: application/json' \\`,
    `    -d '{"apiVersion":"1.0","context":"try","method":"listAll"}' ${flagsUrl}`,
    o.auth === 'none' ? 'Watch the events:' : 'Watch the events (a token is valid 15 s, once):',
    o.auth === 'none'
      ? `  npx wscat${insecure ? ' -n' : ''} -c '${streamUrl}'`
      : `  npx wscat${insecure ? ' -n' : ''} -c "${streamUrl}&wssession=$(curl -s${curlAuth} ${tokenUrl})"`,
    `  > {"apiVersion":"1.0","context":"try","method":"events:configure","params":{"eventFilterList":[{"topicFilter":"tns1:Device//."}]}}`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ];
}

/**
 * Where it is, how to log in, what to hand a body worn system, what to try.
 * `temporaryDataDir`: the data directory is the destination's own, removed at stop.
 */
export function destinationBanner(
  destination: DestinationHandle,
  connectionFile: string | undefined,
  temporaryDataDir = false,
): string {
  const o = destination.options;
  const first = destination.users[0];
  const insecure = destination.certificate ? ' --insecure' : '';
  const curlInsecure = destination.certificate ? ' -k' : '';
  const lines: (string | undefined)[] = [
    '',
    'bwc-emu: content destination is running',
    `  url            ${destination.url}`,
    `  auth           GET ${destination.authUrl}  (X-Auth-User + X-Auth-Key or Auth-Key)`,
    ...destination.users.map(
      (u, i) =>
        `  ${i === 0 ? 'login' : '     '}          ${u.user} / ${u.key} -> ${destination.url}/v1/${u.account}${u.readOnly ? ' (read-only)' : ''}`,
    ),
    `  data dir       ${o.dataDir}${temporaryDataDir ? '  (temporary, removed at stop: --data-dir DIR keeps it)' : ''}`,
    `  licences       ${Number.isFinite(o.licences.users) ? `${o.licences.users} users, ${o.licences.devices} cameras per account` : 'unlimited'}`,
    o.faults.length ? `  faults         ${o.faults.map((f) => JSON.stringify(f)).join(' ')}` : undefined,
    `  recordings     ${destination.url}/  (log in as ${first.user} / ${first.key})`,
    `  fault control  ${destination.url}/_emu/faults  (GET, PUT a JSON list, POST one, DELETE; log in as a user)`,
    destination.certificate
      ? `  certificate    (base64 PEM, for a connection file's HTTPSCertificate)\n${Buffer.from(destination.certificate).toString('base64')}`
      : undefined,
    '',
    connectionFile
      ? `Connection file written to ${connectionFile}:`
      : 'Connection file for a body worn system (--connection-file FILE writes it):',
    JSON.stringify(destination.connectionFile(), null, 2),
    '',
    'Try it:',
    `  curl -i${curlInsecure} -H 'X-Auth-User: ${first.user}' -H 'X-Auth-Key: ${first.key}' ${destination.authUrl}`,
    `  swift${insecure} -A ${destination.authUrl} -U ${first.user} -K ${first.key} stat`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ];
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}
