/**
 * Strict options: `startEmulator`, `startDevice` and `startDestination` refuse a name that
 * is not one of their options with one `BAD_OPTION` naming it and where it belongs, instead
 * of ignoring it: `startEmulator({ port: 0, auth: 'none' })`, a natural guess, ignored both
 * (they belong under `device:`), and the client's WebSocket then got a 401 with no hint why.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ACCOUNT } from '../../src/auth/accounts';
import { systemClock } from '../../src/base/clock';
import { Journal } from '../../src/base/journal';
import { createLogger } from '../../src/base/log';
import { startDestination } from '../../src/destination/destination';
import { type DESTINATION_OPTION_NAMES, type DestinationOptions } from '../../src/destination/destination-options';
import { startDevice } from '../../src/device/device';
import { type DEVICE_OPTION_NAMES, type DeviceOptions } from '../../src/device/device-options';
import { EMULATOR_OPTION_NAMES, type EmulatorOptions, startEmulator } from '../../src/emulator/start-emulator';
import { ManualScheduler } from '../../src/scenario/scheduler';

/** Whether two types are the same: a key table that misses or adds an option does not compile below. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyOptionKnown: [
  Same<keyof typeof EMULATOR_OPTION_NAMES, keyof EmulatorOptions>,
  Same<keyof typeof DEVICE_OPTION_NAMES, keyof DeviceOptions>,
  Same<keyof typeof DESTINATION_OPTION_NAMES, keyof DestinationOptions>,
] = [true, true, true];

/** The `BAD_OPTION` message `start` rejects with (the options are cast: they are wrong on purpose). */
async function refusal(start: () => Promise<unknown>): Promise<string> {
  return start().then(
    () => {
      throw new Error('started, but the options are wrong');
    },
    (err: Error & { code?: string }) => `${err.code}: ${err.message}`,
  );
}

const silent = createLogger({ level: 'silent' });
let stateDir: string;
beforeAll(() => (stateDir = mkdtempSync(join(tmpdir(), 'strict-options-'))));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

/** Every device option, each with a valid value: `satisfies Required` makes the compiler hold it to all of them. */
function everyDeviceOption(): Required<DeviceOptions> {
  return {
    port: 0,
    host: '127.0.0.1',
    sharePort: false,
    allowedHosts: ['.example.test'],
    serial: 'ACCC8E000007',
    identity: { ProdNbr: 'W110' },
    discoveryAuth: 'anonymous',
    accounts: [DEFAULT_ACCOUNT],
    auth: 'none',
    basicOverHttp: false,
    digestAlgorithms: ['MD5'],
    digestReplay: 'lenient',
    nonceLifetimeMs: 300_000,
    persona: 'svc',
    realm: 'SVC_ACCC8E000007',
    cgiPrefix: '/svc-cgi',
    wsPrefix: '/svc',
    namespace: 'tnsvendor',
    tls: false,
    stateDir,
    flags: [],
    tokenLifetimeMs: 15_000,
    sessionTokenFormat: 'alphanumeric',
    maxBodyBytes: 65_536,
    wsDeflate: false,
    maxMessageBytes: 65_536,
    maxBufferedBytes: 4 * 1024 * 1024,
    maxFilters: 256,
    limits: { maxSessions: 10 },
    topicAliases: { onvif: 'tns1' },
    timestamps: { mode: 'utc' },
    initialStates: [],
    clock: systemClock,
    logger: silent,
    logLevel: 'silent',
    journal: new Journal(systemClock),
    control: (_req, _res, next) => next(),
  } satisfies Required<DeviceOptions>;
}

describe('startEmulator', () => {
  it('names port and auth given at the top level, and says they go under device', async () => {
    expect(await refusal(() => startEmulator({ port: 0, auth: 'none' } as EmulatorOptions))).toBe(
      "BAD_OPTION: startEmulator: unknown options port, auth: they are device options; pass them as { device: { port: 0, auth: 'none' } }",
    );
  });

  it('suggests the option a typo is close to, at its level or one down', async () => {
    expect(await refusal(() => startEmulator({ sped: 2 } as EmulatorOptions))).toBe(
      'BAD_OPTION: startEmulator: unknown option sped: did you mean speed?',
    );
    expect(await refusal(() => startEmulator({ prot: 0 } as EmulatorOptions))).toBe(
      'BAD_OPTION: startEmulator: unknown option prot: did you mean device.port?',
    );
  });

  it('names an unknown key of a nested object with its path, and lists the known ones when none is close', async () => {
    expect(await refusal(() => startEmulator({ device: { prot: 0 } } as EmulatorOptions))).toBe(
      'BAD_OPTION: startEmulator: unknown option device.prot: did you mean port?',
    );
    expect(await refusal(() => startEmulator({ control: { tokn: 'x' } } as EmulatorOptions))).toBe(
      'BAD_OPTION: startEmulator: unknown option control.tokn: did you mean token?',
    );
    expect(await refusal(() => startEmulator({ grading: { rule: [] } } as EmulatorOptions))).toBe(
      'BAD_OPTION: startEmulator: unknown option grading.rule: did you mean rules?',
    );
    expect(await refusal(() => startEmulator({ device: { colour: 'red' } } as EmulatorOptions))).toMatch(
      /^BAD_OPTION: startEmulator: unknown option device.colour: the device options are port, host, .*, control$/,
    );
  });

  it('names several mistakes in one error', async () => {
    const wrong = { sped: 2, auth: 'none', colour: 'red' } as EmulatorOptions;
    expect(await refusal(() => startEmulator(wrong))).toBe(
      "BAD_OPTION: startEmulator: unknown options sped, auth, colour: auth is a device option; pass it as { device: { auth: 'none' } }; " +
        `sped: did you mean speed?; the options are ${Object.keys(EMULATOR_OPTION_NAMES).join(', ')}`,
    );
  });

  it('starts with every option given', async () => {
    const emulator = await startEmulator({
      scenarios: ['default'],
      device: everyDeviceOption(),
      speed: 1,
      seed: 1,
      scheduler: new ManualScheduler(),
      watch: false,
      connection: {
        ConnectionFileVersion: '1.0',
        SiteName: 'site',
        ApplicationName: 'bwc-emu',
        ApplicationVersion: '1',
        ContentDestinationAsNTPServer: false,
        AuthenticationTokenURI: ['http://127.0.0.1:1/auth/v1.0'],
        BlobAPIUserName: 'bws',
        BlobAPIKey: 'secret',
        ContainerType: 'mkv',
        FullStoreAndReadSupport: true,
        WantEncryption: false,
      },
      logger: silent,
      onReload: () => undefined,
      journalCapacity: 100,
      grading: { thresholds: {}, skipRules: [] },
      segmentCapacity: 10,
      devices: 1,
      deviceIndexBase: 0,
      addressRange: '127.42.0.1',
      onProgress: () => undefined,
      control: { token: 'secret', maxFeeds: 5 },
    } satisfies Required<EmulatorOptions>);
    expect(everyOptionKnown).toEqual([true, true, true]);
    expect(emulator.devices[0].device.options.auth).toBe('none');
    await emulator.close();
  });
});

describe('startDevice and startDestination', () => {
  it('refuse an unknown option, naming the one it is close to', async () => {
    expect(await refusal(() => startDevice({ prot: 0 } as DeviceOptions))).toBe(
      'BAD_OPTION: startDevice: unknown option prot: did you mean port?',
    );
    expect(await refusal(() => startDestination({ dataDri: stateDir } as DestinationOptions))).toBe(
      'BAD_OPTION: startDestination: unknown option dataDri: did you mean dataDir?',
    );
  });

  it('refuse an unknown key in a nested option', async () => {
    expect(
      await refusal(() =>
        startDestination({ users: [{ user: 'a', key: 'b', readonly: true }] } as unknown as DestinationOptions),
      ),
    ).toBe('BAD_OPTION: startDestination: unknown option users[0].readonly: did you mean readOnly?');
    expect(await refusal(() => startDestination({ licences: { user: 1 } } as DestinationOptions))).toBe(
      'BAD_OPTION: startDestination: unknown option licences.user: did you mean users?',
    );
  });

  it('start with every option given', async () => {
    const device = await startDevice(everyDeviceOption());
    expect(device.options.serial).toBe('ACCC8E000007');
    await device.close();
    const destination = await startDestination({
      port: 0,
      host: '127.0.0.1',
      dataDir: join(stateDir, 'destination'),
      users: [{ user: 'bws', key: 'secret', account: 'AUTH_bws', readOnly: false }],
      tokenLifetimeMs: 60_000,
      licences: { users: 5, devices: 5 },
      quotaBytes: 1_000_000,
      maxObjectBytes: 100_000,
      capabilities: {},
      categories: [],
      faults: [],
      tls: false,
      publicUrl: 'http://127.0.0.1:1',
      basicOverHttp: false,
      loginThrottle: {},
      maxAheadMs: 60_000,
      stalledAfterMs: 60_000,
      clock: systemClock,
      sleep: (ms) => new Promise((done) => setTimeout(done, ms)),
      logger: silent,
      logLevel: 'silent',
      openWrite: (path) => createWriteStream(path),
    } satisfies Required<DestinationOptions>);
    await destination.close();
  });
});
