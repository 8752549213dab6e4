/**
 * The reference content destination: a Swift-subset server with the body worn rules,
 * storing into a data directory. Start it, give its auth URL and a login to a body
 * worn system (or `bwc-emu upload`), watch the recordings arrive.
 */
import { LoginThrottle, refusalLog } from '../auth/login-throttle';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { EmulatorError } from '../base/errors';
import { createLogger, type Logger } from '../base/log';
import type { Result } from '../base/result';
import { buildConnectionFile } from '../protocol/connection-file';
import type { ConnectionFile } from '../protocol/connection-file';
import { listenApp } from '../base/listening-server';
import { refusalFileIn } from './refusal-file';
import { MAX_HEADER_LINE_BYTES, MAX_HEADER_LINES } from '../protocol/swift-request-limits';
import { capabilitiesDocument, RESERVED_CONTAINERS, SYSTEM_OBJECTS } from '../protocol/body-worn';
import { selfSignedCertificate } from '../base/tls';
import { buildDestinationListener } from './destination-app';
import type { DestinationContext } from './destination-context';
import {
  type DestinationOptions,
  resolveDestinationOptions,
  type ResolvedDestinationOptions,
  type ResolvedUser,
} from './destination-options';
import { FaultInjector, type FaultRule } from './faults';
import { noRoomCode, type StorageState } from './store/disk-room';
import { ObjectStore } from './store/object-store';
import { RecordingLog, type RecordingInfo } from './recordings';
import { SwiftTokens } from './swift-tokens';

/** A running content destination. */
export interface DestinationHandle {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly port: number;
  /** `{url}/auth/v1.0`: where clients authenticate (a connection file's `AuthenticationTokenURI`). */
  readonly authUrl: string;
  /** The PEM certificate served (HTTPS only), to trust in a client. */
  readonly certificate: string | undefined;
  /** The options in force, defaults filled in (the data directory among them). */
  readonly options: Readonly<ResolvedDestinationOptions>;
  /** The logins, with their accounts. */
  readonly users: readonly ResolvedUser[];
  /** `{url}/v1/{account}` of a login (the first by default): what `X-Storage-Url` says. */
  storageUrl(user?: string): string;
  /** A connection file for a login (the first by default), for `bwc-emu upload` or a real body worn system. */
  connectionFile(user?: string): ConnectionFile;
  /**
   * Whether the destination takes writes now: `read-only` (with the reason, `ENOSPC`,
   * `EDQUOT` or `EROFS`) after it met a full disk, until a write finds room again.
   */
  storage(): StorageState;
  /** Recordings received (one account's, or all), with status, clips, bytes and duration. */
  recordings(account?: string): RecordingInfo[];
  /** Fault injection: the same rules as the `/_emu/faults` endpoint; a bad rule throws `BAD_OPTION`. */
  readonly faults: {
    list(): (FaultRule & { hits: number })[];
    add(rule: FaultRule): void;
    replace(rules: FaultRule[]): void;
    clear(): void;
  };
  /** Forgets every auth token: clients get 401 and must authenticate again. */
  revokeTokens(): void;
  /**
   * Stops listening and ends every connection; resolves when all is closed. A data
   * directory the destination made itself (no `dataDir` given) is removed with what it holds.
   */
  close(): Promise<void>;
}

/**
 * Starts a destination on `options.port` (0 = a free port) and resolves when it listens.
 * Without `dataDir`, it stores into a new temporary directory, removed at `close()`.
 */
export async function startDestination(options: DestinationOptions = {}): Promise<DestinationHandle> {
  const resolved = resolveDestinationOptions(options);
  // resolveDestinationOptions made a temporary directory exactly when none was given.
  const removeDataDir = async (): Promise<void> => {
    if (!options.dataDir) await rm(resolved.dataDir, { recursive: true, force: true });
  };
  const log = options.logger ?? createLogger({ level: options.logLevel });
  const tls =
    resolved.tls === true
      ? await selfSignedCertificate('bwc-emu-destination.local', resolved.host).catch(async (err: unknown) => {
          await removeDataDir();
          throw err;
        })
      : resolved.tls || undefined;
  // The store owns its MD5 worker threads (started at the first large body): closed with the destination.
  const store = new ObjectStore({
    dataDir: resolved.dataDir,
    clock: resolved.clock,
    log,
    openWrite: resolved.openWrite,
  });
  const recordings = new RecordingLog(() => resolved.clock.now(), log);
  // Accounts whose System objects could not be published for lack of room: published once there is room.
  const unpublished = new Set<string>();
  try {
    // A full disk starts the destination read-only (reads served, writes 507) instead of failing the start.
    await store.room.check();
    for (const account of resolved.accounts) {
      await store.openAccount(account);
      await publishSystemObjects(store, account, resolved).catch((err: unknown) => {
        if (noRoomCode(err) === undefined) throw err;
        unpublished.add(account);
        log.warn({ account }, 'System objects not published (no room): published once there is room');
      });
      recordings.load(account, store.containers(account));
    }
    store.room.whenRoomAgain(() => publishWhenRoom(store, unpublished, resolved, log));
    // Refused recordings often have no container: they are kept in a file of their own.
    recordings.keepRefusalsIn(refusalFileIn(resolved.dataDir), resolved.accounts);
  } catch (err) {
    await store.close();
    await removeDataDir();
    throw err;
  }
  const ctx: DestinationContext = {
    options: resolved,
    store,
    tokens: new SwiftTokens(resolved.clock, resolved.tokenLifetimeMs),
    loginThrottle: new LoginThrottle({ clock: resolved.clock, ...resolved.loginThrottle }),
    loginLog: refusalLog(log, resolved.clock, 'auth refusals not logged one by one (counted by remote address)'),
    faults: new FaultInjector(resolved.faults),
    recordings,
    log,
    scheme: tls ? 'https' : 'http',
  };
  const app = buildDestinationListener(ctx);
  // `Expect: 100-continue` goes to the app, which sends the 100 only when a PUT passed
  // every check: a refused upload's body is never sent (Swift's proxy does the same).
  const listening = await listenApp(app, {
    port: resolved.port,
    host: resolved.host,
    tls,
    log,
    appContinues: true,
    headerLimits: { maxLines: MAX_HEADER_LINES, maxLineBytes: MAX_HEADER_LINE_BYTES },
  }).catch(async (err: unknown) => {
    await store.close();
    await removeDataDir();
    throw err;
  });
  const { url, port } = listening;
  log.info(
    { url, dataDir: resolved.dataDir, accounts: resolved.accounts, storage: store.room.state.mode },
    'content destination listening',
  );
  const storage = store.room.state;
  if (storage.mode === 'read-only')
    log.warn({ reason: storage.reason }, `content destination read-only: ${storage.message}`);

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    authUrl: `${url}/auth/v1.0`,
    certificate: tls?.cert,
    options: resolved,
    users: resolved.users,
    storageUrl: (user) => `${url}/v1/${findUser(resolved, user).account}`,
    connectionFile: (user) => {
      const login = findUser(resolved, user);
      return buildConnectionFile({
        authUrl: `${url}/auth/v1.0`,
        user: login.user,
        key: login.key,
        certificate: tls?.cert,
      });
    },
    storage: () => store.room.state,
    recordings: (account) => recordings.list(account),
    faults: {
      list: () => ctx.faults.list(),
      add: (rule) => orBadOption(ctx.faults.add(rule)),
      replace: (rules) => orBadOption(ctx.faults.replace(rules)),
      clear: () => ctx.faults.replace([]),
    },
    revokeTokens: () => ctx.tokens.revokeAll(),
    close: () => {
      closed ??= listening
        .close()
        .finally(() => store.close())
        .finally(removeDataDir)
        .then(() => {
          ctx.loginLog.flush();
          log.info('content destination closed');
        });
      return closed;
    },
  };
}

function findUser(options: ResolvedDestinationOptions, user: string | undefined): ResolvedUser {
  const login = user === undefined ? options.users[0] : options.users.find((u) => u.user === user);
  if (!login)
    throw new EmulatorError('BAD_OPTION', `no user "${user}" (users: ${options.users.map((u) => u.user).join(', ')})`);
  return login;
}

/**
 * Publishes `System/Capabilities.json` and `System/Categories.json` from the options at
 * every start, so what is published always matches what the destination enforces; a
 * document already stored as it is now is not written again. On a full disk it throws
 * an error with the no-room code (`ENOSPC`...).
 */
async function publishSystemObjects(
  store: ObjectStore,
  account: string,
  options: ResolvedDestinationOptions,
): Promise<void> {
  const container = RESERVED_CONTAINERS.system;
  await store.putContainer(account, container, {});
  const documents: [string, unknown][] = [
    [SYSTEM_OBJECTS.capabilities, capabilitiesDocument(options.capabilities)],
    [SYSTEM_OBJECTS.categories, options.categories],
  ];
  for (const [name, document] of documents) {
    const body = Buffer.from(`${JSON.stringify(document, null, 2)}\n`);
    const current = store.object(account, container, name);
    const etag = createHash('md5').update(body).digest('hex');
    if (current?.etag === etag && current.contentType === JSON_TYPE && Object.keys(current.metadata).length === 0)
      continue;
    const outcome = await store.putObject(account, container, name, Readable.from([body]), {
      contentType: JSON_TYPE,
      metadata: {},
      maxBytes: Infinity,
      quotaLeft: Infinity,
    });
    if (!outcome.ok)
      throw Object.assign(new Error(`cannot publish System/${name}: ${outcome.error.message}`), {
        code: outcome.error.noRoom,
      });
  }
}

const JSON_TYPE = 'application/json';

/** Publishes the System objects of the accounts in `unpublished` (once the disk has room again). */
async function publishWhenRoom(
  store: ObjectStore,
  unpublished: Set<string>,
  options: ResolvedDestinationOptions,
  log: Logger,
): Promise<void> {
  for (const account of [...unpublished]) {
    try {
      await publishSystemObjects(store, account, options);
      unpublished.delete(account);
      log.info({ account }, 'System objects published');
    } catch (err) {
      log.warn({ account, err: (err as Error).message }, 'System objects still not published');
    }
  }
}

/** Throws a failure of an API call as `BAD_OPTION`. */
function orBadOption(result: Result<void>): void {
  if (!result.ok) throw new EmulatorError('BAD_OPTION', result.error.message);
}
