/**
 * Finds, or starts, the stock OpenStack Swift the interop tests run against
 * (test/interop/stock-swift.test.ts). A Swift that already answers is used as it is.
 * Otherwise, when the test's settings are the defaults of `scripts/stock-swift.sh` and
 * Debian's swift packages are installed, the script starts one (all in one, on
 * loopback, under BWC_SWIFT_DIR) and the suite stops it afterwards; so a developer's
 * `npm test` and CI run these tests wherever the packages are. Anything else (packages
 * missing, a start that fails, a configured Swift that does not answer) is a skip line,
 * or a failure where the tools are required ({@link toolMissing}).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { toolMissing } from './required-tools';

/** The script that runs the stock Swift. */
export const STOCK_SWIFT_SCRIPT = resolve(__dirname, '../../scripts/stock-swift.sh');

/** Settings that point the test at another Swift: with any of them, the test starts none. */
const CONFIGURED = ['BWC_SWIFT_AUTH_URL', 'BWC_SWIFT_USER', 'BWC_SWIFT_KEY', 'BWC_SWIFT_ACCOUNT', 'BWC_SWIFT_PORT'];
/** What the script needs on PATH (Debian's swift-* packages and memcached). */
const PROGRAMS = ['swift-ring-builder', 'swift-proxy-server', 'swift-object-server', 'memcached'];
const PACKAGES = 'swift swift-proxy swift-account swift-container swift-object memcached';
/** A cold first start (rings built, four Pythons importing Swift) on a busy 2-core machine. */
const START_TIMEOUT_MS = 120_000;

/** What the probe of an auth URL found. */
export interface SwiftProbe {
  ok: boolean;
  why?: string;
  version?: string;
}

/** A Swift to test against, or why there is none; `stop` undoes a start made here. */
export interface StockSwift extends SwiftProbe {
  startedHere: boolean;
  startSeconds?: number;
  stop: () => void;
}

/**
 * Asks the auth URL, synchronously (so the suite can be skipped while Jest collects
 * it): a child node process does GET auth then GET {origin}/info, 2 s each. The /info
 * must be Swift's and lack the `bwc_emu` section, so the emulator's own device (also
 * on 8080 by default) or the reference destination is never taken for a stock Swift.
 */
export function probeSwift(url: string, user: string, key: string): SwiftProbe {
  const script = `
    const [url, user, key] = process.argv.slice(1);
    const get = (u, headers) => new Promise((resolve) => {
      const target = new URL(u);
      const req = require(target.protocol === 'https:' ? 'node:https' : 'node:http').request(target, { headers, timeout: 2000, rejectUnauthorized: false }, (res) => {
        const chunks = []; res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      });
      req.on('timeout', () => req.destroy(new Error('no answer within 2 s')));
      req.on('error', (err) => resolve({ error: err.message }));
      req.end();
    });
    (async () => {
      const auth = await get(url, { 'X-Auth-User': user, 'X-Auth-Key': key });
      if (auth.error) return { ok: false, why: 'nothing answers at ' + url + ' (' + auth.error + ')' };
      if (!auth.headers['x-storage-url'] || !auth.headers['x-auth-token']) return { ok: false, why: url + ' answered ' + auth.status + ' without X-Storage-Url / X-Auth-Token (not a Swift auth endpoint, or ' + user + ' was refused)' };
      const info = await get(new URL('/info', url).href, {});
      let version;
      try { version = JSON.parse(info.body).swift.version; } catch {}
      if (typeof version !== 'string') return { ok: false, why: url + ' answers auth, but ' + new URL('/info', url).href + ' is not a Swift /info document (not a stock Swift)' };
      let emulated = false;
      try { emulated = 'bwc_emu' in JSON.parse(info.body); } catch {}
      if (emulated) return { ok: false, why: url + " is bwc-emu's own reference destination (its /info has a bwc_emu section), not a stock Swift" };
      return { ok: true, version };
    })().then((r) => process.stdout.write(JSON.stringify(r)));
  `;
  const run = spawnSync(process.execPath, ['-e', script, url, user, key], { encoding: 'utf8', timeout: 8_000 });
  try {
    return JSON.parse(run.stdout) as SwiftProbe;
  } catch {
    return {
      ok: false,
      why: `the probe of ${url} did not finish (${run.error?.message ?? run.stderr.trim().split('\n')[0] ?? 'no output'})`,
    };
  }
}

/** The programs of {@link PROGRAMS} not found on PATH. */
function missingPrograms(): string[] {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  return PROGRAMS.filter((name) => !dirs.some((dir) => existsSync(join(dir, name))));
}

/** Runs `stock-swift.sh COMMAND`; its exit code (null when killed) and output. */
function script(command: string, timeout: number): { code: number | null; output: string } {
  const run = spawnSync(STOCK_SWIFT_SCRIPT, [command], { encoding: 'utf8', timeout, env: process.env });
  return {
    code: run.status,
    output: `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? run.error.message : ''}`.trim(),
  };
}

/**
 * The Swift at `url`, started with the script first when nothing answers there, the
 * settings are the script's defaults and its programs are installed. Reports a missing
 * Swift through {@link toolMissing}: skipped here, thrown where tools are required.
 */
export function stockSwift(url: string, user: string, key: string): StockSwift {
  const none = { startedHere: false, stop: () => undefined };
  const found = probeSwift(url, user, key);
  if (found.ok) return { ...found, ...none };
  const configured = CONFIGURED.filter((name) => process.env[name]);
  const missing = missingPrograms();
  let why = found.why ?? 'no Swift';
  if (configured.length > 0) why += ` (${configured.join(', ')} set: the test starts no Swift of its own)`;
  else if (missing.length > 0) why += `, and ${missing.join(', ')} not installed (apt-get install ${PACKAGES})`;
  else {
    const started = Date.now();
    const start = script('start', START_TIMEOUT_MS);
    const startSeconds = (Date.now() - started) / 1000;
    const stop = (): void => {
      script('stop', 30_000);
    };
    const again = start.code === 0 ? probeSwift(url, user, key) : undefined;
    if (again?.ok) return { ...again, startedHere: true, startSeconds, stop };
    stop();
    why += `; \`scripts/stock-swift.sh start\` ${start.code === 0 ? `ran but ${again?.why}` : `failed (exit ${start.code}) after ${startSeconds.toFixed(1)} s`}: ${start.output.split('\n').slice(-8).join(' | ')}`;
  }
  toolMissing(
    `stock Swift interop tests skipped: ${why}.\n` +
      'Install the Debian packages (`scripts/stock-swift.sh install`, as root) and the tests start one with ' +
      '`scripts/stock-swift.sh start`, or point BWC_SWIFT_AUTH_URL, BWC_SWIFT_USER and BWC_SWIFT_KEY at one (docs/stock-swift.md)',
  );
  return { ...found, ok: false, why, ...none };
}
