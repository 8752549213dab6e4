/**
 * The start-up banners: what a newcomer needs to see when a device or a destination runs.
 * Secrets show only as ./credentials allows; otherwise the banner says where they are.
 */
import { acceptedSchemes } from '../auth/authenticator';
import {
  type ConnectionFile,
  DEFAULT_ACCOUNT,
  DEFAULT_DESTINATION_USER,
  type DestinationHandle,
  type EmulatedDevice,
  type Scenario,
} from '../index';
import {
  connectionKeyCommand,
  type SecretsView,
  shellWord,
  type ShownSecret,
  shownSecret,
  variableLines,
} from './credentials';

/** The connection file a device uploads the scenario's recordings with, and where it was read from. */
export interface ReadConnectionFile {
  file: ConnectionFile;
  path: string;
}

/** Where the scenario's `body-worn:` recordings go, for the banner; undefined when it has none. */
function recordingsLine(scenario: Scenario, connection: ReadConnectionFile | undefined): string | undefined {
  const count = scenario['body-worn']?.recordings.length;
  if (count === undefined) return undefined;
  if (!connection) return `${count} in the scenario, not uploaded (no --connection-file)`;
  const { file, path } = connection;
  return `${count} to upload to ${file.AuthenticationTokenURI[0]} as the scenario plays (as ${file.BlobAPIUserName}, key: in connection file ${path})`;
}

/** `motion (scenarios/motion.yaml, speed 10)`. */
function scenarioLabel(name: string, file: string | undefined, speed: number): string {
  const details = [file, speed !== 1 ? `speed ${speed}` : undefined].filter((d) => d !== undefined);
  return details.length ? `${name} (${details.join(', ')})` : name;
}

/** More devices than this get one table instead of a banner each. */
const MAX_FULL_BANNERS = 3;

/** A fleet of more devices than this shows the first and last rows of its table, not a row each. */
const MAX_TABLE_ROWS = 20;

/** Rows shown at the top of a cut table (the last device's row closes it). */
const HEAD_ROWS = 10;

/**
 * What a newcomer needs of the running devices: a banner each (where it is, how to log in,
 * one command to try), or for a fleet one table of serials and URLs (its first and last rows
 * for a big one: the ready file and the control API list every device) and the commands once.
 */
export function devicesBanner(
  devices: readonly EmulatedDevice[],
  speed: number,
  connection: ReadConnectionFile | undefined,
  view: SecretsView,
): string {
  if (devices.length <= MAX_FULL_BANNERS) return devices.map((d) => deviceBanner(d, speed, connection, view)).join('');
  const first = devices[0];
  const last = devices[devices.length - 1];
  const labels = [
    ...new Set(devices.map((d) => scenarioLabel(d.scenario.name ?? d.file ?? 'scenario', d.file, speed))),
  ];
  const cut = devices.length > MAX_TABLE_ROWS;
  const rows = cut ? [...devices.slice(0, HEAD_ROWS), last] : devices;
  const width = Math.max(...rows.map((d) => d.device.serial.length), 'serial'.length);
  const row = (d: EmulatedDevice): string => `  ${d.device.serial.padEnd(width)}  ${d.device.url}`;
  const byAddress = first.device.options.sharePort === true;
  const lines: (string | undefined)[] = [
    '',
    warning(first),
    byAddress
      ? `bwc-emu: ${count(devices.length)} devices are running, each with this login at its own address, all on port ${first.device.port}`
      : `bwc-emu: ${count(devices.length)} devices are running, each with this login and its own port`,
    byAddress ? `  addresses      ${first.device.host} to ${last.device.host}` : undefined,
    ...accessLines(first, true, view),
    dashboardLine(first, true),
    `  scenario       ${labels.length === 1 ? labels[0] : `${labels.length} different ones`}`,
    '',
    `  ${'serial'.padEnd(width)}  url`,
    ...rows.slice(0, cut ? HEAD_ROWS : rows.length).map(row),
    cut ? `  ... ${count(devices.length - HEAD_ROWS - 1)} more ...` : undefined,
    cut ? row(last) : undefined,
    cut ? everyDeviceLine(first) : undefined,
    '',
    ...tryLines(first, ` (on ${first.device.serial})`, view),
  ];
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}

/** Where a cut table's missing rows are: the ready file, and the control API when it is on. */
function everyDeviceLine(first: EmulatedDevice): string {
  const control = first.access.control;
  return `  every device: the ready file (--ready-file FILE)${control === undefined ? '' : ` or GET ${control}/devices`}`;
}

/** `100000` -> `100,000`. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** The banner of one device. */
export function deviceBanner(
  running: EmulatedDevice,
  speed: number,
  connection: ReadConnectionFile | undefined,
  view: SecretsView,
): string {
  const { device, file } = running;
  const scenario = scenarioLabel(running.scenario.name ?? file ?? 'scenario', file, speed);
  const recordings = recordingsLine(running.scenario, connection);
  const urls = device.urls;
  const lines: (string | undefined)[] = [
    '',
    warning(running),
    `bwc-emu: device ${device.serial} is running`,
    `  url            ${device.url}`,
    dashboardLine(running, false),
    ...accessLines(running, false, view),
    `  feature flags  POST ${urls.featureFlags}`,
    `  session token  GET  ${urls.sessionToken}`,
    `  discovery      POST ${urls.apiDiscovery}, basicdeviceinfo.cgi, GET param.cgi`,
    `  event stream   ${urls.eventStream}`,
    `  scenario       ${scenario}`,
    recordings === undefined ? undefined : `  recordings     ${recordings}`,
    '',
    ...tryLines(running, '', view),
  ];
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}

/** Where the dashboard is (`fleet`: on every device); the browser asks for the device's login. */
function dashboardLine(running: EmulatedDevice, fleet: boolean): string {
  return `  dashboard      ${fleet ? 'URL/ of each device' : `${running.device.url}/`} in a browser, same login`;
}

/** The warning when authentication is off, else undefined. */
function warning(running: EmulatedDevice): string | undefined {
  return running.device.options.auth === 'none'
    ? 'WARNING: authentication is OFF (--auth none): anyone who can reach this port has full access.'
    : undefined;
}

/** The admin password as the banner shows it: `root / pass` at a terminal, else where it comes from. */
function adminPassword(running: EmulatedDevice, view: SecretsView): ShownSecret {
  return shownSecret(view, running.device.options.accounts[0]?.password ?? '', DEFAULT_ACCOUNT.password, {
    given: 'as given by --password',
    fromDefault: 'the default one, shown by bwc-emu --help',
    variable: 'BWC_EMU_PASSWORD',
  });
}

/** The login, the schemes, the control API (`fleet`: of every device, not just this one). */
function accessLines(running: EmulatedDevice, fleet: boolean, view: SecretsView): (string | undefined)[] {
  const { device, access } = running;
  const o = device.options;
  const admin = o.accounts[0];
  const realm = `realm ${fleet ? `of each device (${device.realm} on the first)` : device.realm}`;
  const authLine =
    o.auth === 'none' ? 'none: every request is served, no login asked (--auth none)' : schemesText(running, realm);
  const control = fleet ? 'URL/_emu of each device' : access.control;
  const password = adminPassword(running, view);
  const more = o.accounts.length > 1 ? `; and ${o.accounts.length - 1} more account(s) (--account)` : '';
  return [
    o.auth === 'none'
      ? undefined
      : password.value === undefined
        ? `  credentials    ${admin?.name} (admin), password: ${password.from}${more}`
        : `  credentials    ${admin?.name} / ${password.value} (admin)${more}`,
    `  auth           ${authLine}`,
    access.control === undefined ? undefined : `  control API    ${control}`,
  ];
}

/**
 * The schemes a device offers and its realm: `digest (MD5) or basic, realm R`, and why
 * Basic is off (on plain HTTP, unless asked) or what it costs there.
 */
function schemesText(running: EmulatedDevice, realm: string): string {
  const { device } = running;
  const o = device.options;
  const plainHttp = device.certificate === undefined;
  const schemes = acceptedSchemes(o.auth, plainHttp, o.basicOverHttp);
  const digest = `digest (${o.digestAlgorithms.join(', ')})`;
  const offered = schemes.map((s) => (s === 'digest' ? digest : 'basic')).join(' or ');
  const note = !schemes.includes('basic')
    ? o.auth === 'both'
      ? '; Basic is off on plain HTTP (--basic-over-http turns it on)'
      : ''
    : plainHttp
      ? '; Basic on plain HTTP sends the password in clear'
      : '';
  return `${offered}, ${realm}${note}`;
}

/** Commands to try against `running` (`where` says which device, for a fleet), and how to stop. */
function tryLines(running: EmulatedDevice, where: string, view: SecretsView): string[] {
  const { device } = running;
  const o = device.options;
  const admin = o.accounts[0];
  const password = adminPassword(running, view);
  const insecure = device.certificate ? ' -k' : '';
  const { featureFlags: flagsUrl, sessionToken: tokenUrl, eventStream: streamUrl } = device.urls;
  // curl speaks Basic unless told --digest; a device that accepts digest gets digest.
  const scheme = o.auth === 'basic' ? '' : ' --digest';
  const curlAuth = `${insecure}${scheme} -u ${shellWord(`${admin?.name}:`, password)}`;
  return [
    ...(o.auth === 'none' ? [] : variableLines(password, 'password')),
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

/** What {@link destinationBanner} needs besides the destination. */
export interface DestinationBannerContext {
  /** Where `--connection-file` wrote the connection file, if it did. */
  connectionFile: string | undefined;
  /** The data directory is the destination's own, removed at stop. */
  temporaryDataDir: boolean;
  view: SecretsView;
}

/** Where it is, how to log in, what to hand a body worn system, what to try. */
export function destinationBanner(destination: DestinationHandle, context: DestinationBannerContext): string {
  const { connectionFile, temporaryDataDir, view } = context;
  const o = destination.options;
  const first = destination.users[0];
  const keys = destination.users.map((_user, i) => keyOf(destination, i, connectionFile, view));
  const firstKey = keys[0];
  const insecure = destination.certificate ? ' --insecure' : '';
  const curlInsecure = destination.certificate ? ' -k' : '';
  const basic = acceptedSchemes('both', destination.certificate === undefined, o.basicOverHttp).includes('basic');
  const file = destination.connectionFile();
  const printedFile = firstKey.value === undefined ? { ...file, BlobAPIKey: `<not printed: ${firstKey.from}>` } : file;
  const lines: (string | undefined)[] = [
    '',
    'bwc-emu: content destination is running',
    `  url            ${destination.url}`,
    `  auth           GET ${destination.authUrl}  (X-Auth-User + X-Auth-Key or Auth-Key)`,
    ...destination.users.map(
      (u, i) =>
        `  ${i === 0 ? 'login' : '     '}          ${u.user}${keys[i].value === undefined ? `, key: ${keys[i].from}` : ` / ${keys[i].value}`} -> ${destination.url}/v1/${u.account}${u.readOnly ? ' (read-only)' : ''}`,
    ),
    `  data dir       ${o.dataDir}${temporaryDataDir ? '  (temporary, removed at stop: --data-dir DIR keeps it)' : ''}`,
    `  licences       ${Number.isFinite(o.licences.users) ? `${o.licences.users} users, ${o.licences.devices} cameras per account` : 'unlimited'}`,
    o.faults.length ? `  faults         ${o.faults.map((f) => JSON.stringify(f)).join(' ')}` : undefined,
    `  recordings     ${destination.url}/  (log in as ${first.user}${firstKey.value === undefined ? ' with its key' : ` / ${firstKey.value}`})`,
    `  page login     digest (MD5, SHA-256)${basic ? ' or basic' : '; Basic is off on plain HTTP (--basic-over-http turns it on)'}`,
    `  fault control  ${destination.url}/_emu/faults  (GET, PUT a JSON list, POST one, DELETE; log in as a user)`,
    destination.certificate
      ? `  certificate    (base64 PEM, for a connection file's HTTPSCertificate)\n${Buffer.from(destination.certificate).toString('base64')}`
      : undefined,
    '',
    connectionFile
      ? `Connection file written to ${connectionFile}${firstKey.value === undefined ? ' (its key is not printed here)' : ''}:`
      : `Connection file for a body worn system (--connection-file FILE writes it${firstKey.value === undefined ? ', key included' : ''}):`,
    JSON.stringify(printedFile, null, 2),
    '',
    ...variableLines(
      firstKey,
      `key of ${first.user}`,
      connectionFile === undefined ? undefined : connectionKeyCommand(connectionFile),
    ),
    'Try it:',
    `  curl -i${curlInsecure} -H 'X-Auth-User: ${first.user}' -H ${shellWord('X-Auth-Key: ', firstKey)} ${destination.authUrl}`,
    `  swift${insecure} -A ${destination.authUrl} -U ${first.user} -K ${shellWord('', firstKey)} stat`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ];
  return `${lines.filter((l) => l !== undefined).join('\n')}\n`;
}

/** The key of the destination's `index`-th login as the banner shows it. */
function keyOf(
  destination: DestinationHandle,
  index: number,
  connectionFile: string | undefined,
  view: SecretsView,
): ShownSecret {
  const count = destination.users.length;
  const flag = count === 1 ? '--key' : `--key number ${index + 1}`;
  const alsoIn = index === 0 && connectionFile !== undefined ? `; also in connection file ${connectionFile}` : '';
  return shownSecret(view, destination.users[index].key, DEFAULT_DESTINATION_USER.key, {
    given: `as given by ${flag}${alsoIn}`,
    fromDefault: `the default one, shown by bwc-emu destination --help${alsoIn}`,
    variable: 'BWC_EMU_KEY',
  });
}
