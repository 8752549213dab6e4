/**
 * docs/limits.md, made from the table of device limits so the page cannot drift from the
 * code: a test compares the committed page with this text (`npm run docs` rewrites it).
 */
import { join } from 'node:path';
import { CLIENT_HEADER, IGNORED_TAG_LOG_INTERVAL_MS, LOGGED_IGNORED_TAGS } from '../base/client-tag';
import { markdownTable } from '../base/markdown-table';
import { CLOSE_TIMEOUT_MS, SLOW_CLOSE_TIMEOUT_MS } from '../events/close-handshake';
import { DEFAULT_PING_LIMIT } from '../events/ping-limit';
import { EMULATOR_CLIENT_SESSIONS, EMULATOR_CLIENT_TERMS, SESSION_FREE_TERMS } from '../events/session-limits';
import { DEFAULT_THROTTLE } from '../auth/login-throttle';
import { DEVICE_LIMITS } from './device-limits';
import { DISCARD_LIMITS } from './http-body';
import { LINGER_LIMITS } from '../base/lingering-close';

/** Where the page lives, from the package root. */
export const LIMITS_DOC_FILE = join(__dirname, '..', '..', 'docs', 'limits.md');

/** The whole page. */
export function limitsDoc(): string {
  const out: string[] = [
    '# Device limits',
    '',
    '<!-- Generated from src/device/device-limits.ts by `npm run docs`; do not edit by hand. -->',
    '',
    'A device holds every client to these limits, so that no client, and no account (a viewer',
    'included), can slow the device for the others. Each limit has a defined answer that names it; none',
    'makes the device slower. Set them from a test with `startDevice({ limits: { maxSessionsPerAccount: 10 } })`',
    '(`device: { limits }` for `startEmulator`), or on the command line with `--limit name=value` (repeatable).',
    '',
    "Filter *terms* are what evaluating a filter costs per published event: a topic filter's alternatives",
    "(`a|b|c` is 3) plus a content filter's comparisons (`@Name=`, `@Value=`); every filter counts at least 1.",
    "`maxAccountTerms` is the per-event evaluation budget of an account: all of its sessions' filters together;",
    "`maxDeviceTerms` bounds all the clients' sessions of the device together, so no number of accounts or addresses",
    `can raise what one device spends per event. It counts what each session holds beyond its first ${SESSION_FREE_TERMS} terms:`,
    "a client's few filters (a handful of topics, a short content filter) always fit, however full the device, and",
    'cost no more than any session does (their total is bounded by `maxSessions`).',
    'Without authentication (`auth: none`) there are no accounts: sessions are counted per remote address, but',
    'terms per session, since an address tells no client apart (every local client is 127.0.0.1, and a stranger',
    'may use any of 127.0.0.0/8): each session may hold `maxAccountTerms`, and all of them `maxDeviceTerms`',
    'together. One client holding its share leaves the others of its address theirs, and strangers from any',
    'number of addresses can neither take the device past its budget nor keep a client from its first filters (a client',
    "asking for more than those may find the device's budget taken: only accounts tell clients apart).",
    '',
    ...markdownTable(
      ['limit', 'default', 'range', 'what it limits', 'past it'],
      DEVICE_LIMITS.map((spec) => [
        `\`${spec.name}\``,
        spec.defaultValue.toLocaleString('en-US'),
        `${spec.min}-${spec.max.toLocaleString('en-US')}`,
        spec.what,
        spec.past,
      ]),
    ),
    '',
    'Set as device options of their own (older than the table above):',
    '',
    ...markdownTable(
      ['option', 'default', 'past it'],
      [
        ['`maxFilters`', '256', '`events:configure` answered 2104 naming the limit'],
        ['`maxMessageBytes`', '65,536', 'the event stream message answered 2107 (the session stays open)'],
        ['`maxBodyBytes`', '65,536', 'the JSON request answered 2107, then the connection is closed'],
        [
          '`maxBufferedBytes`',
          '4 MiB',
          'the session of a client too slow to read drops what waits for it and is closed with 1013 (the close frame goes ahead of the dropped data)',
        ],
      ],
    ),
    '',
    'Fixed:',
    '',
    ...markdownTable(
      ['what', 'value', 'past it'],
      [
        [
          'pings per event stream session',
          `${DEFAULT_PING_LIMIT.pings} per ${DEFAULT_PING_LIMIT.windowMs / 1000} s`,
          'closed with 1008 `ping flood` (pings under it get their pongs)',
        ],
        [
          "event stream sessions of the emulator's dashboard (`X-BWC-Emu-Client: dashboard`) per device",
          `${EMULATOR_CLIENT_SESSIONS}`,
          "handshake refused: 429 naming the quota; the dashboard's sessions count toward `maxSessions`, never toward an account's share",
        ],
        [
          "filter terms the dashboard's sessions hold together per device",
          `${EMULATOR_CLIENT_TERMS}`,
          '`events:configure` answered 2104 naming the budget',
        ],
        [
          'answer to a device close',
          `${CLOSE_TIMEOUT_MS / 1000} s; ${SLOW_CLOSE_TIMEOUT_MS / 1000} s after a 1013 (too slow to read)`,
          'a client that does not answer the close frame of the device is cut off; the log and journal keep the code the device sent. ' +
            'A client closed for reading too slowly must first read what its socket holds, so it gets as long as a `ws` server gives any close handshake',
        ],
        [
          'a JSON request body past `maxBodyBytes`',
          `${DISCARD_LIMITS.maxBytes / 1024 / 1024} MiB, ${DISCARD_LIMITS.maxMs / 1000} s`,
          'read and thrown away after the 2107 answer, so the client sees the answer instead of a reset',
        ],
        [
          'what a client still sends after an answer that closes the connection (a refused body, bytes past a short ' +
            '`Content-Length`, a malformed request answered 400)',
          `${LINGER_LIMITS.maxBytes / 1024 / 1024} MiB, ${LINGER_LIMITS.maxMs / 1000} s`,
          'a lingering close, as nginx does: the answer goes out whole, then the device ends its side and reads and ' +
            'throws away what still comes until the client closes its side; past the bound the connection is cut',
        ],
      ],
    ),
    '',
    'Wrong logins are counted per remote address and per remote address and user, never per user alone,',
    'as nginx `limit_req` and fail2ban throttle by source (Apache and nginx never lock an account): a login',
    'from an address that has not failed is never throttled, so wrong passwords from other addresses cannot',
    `lock a user out. An address past \`loginFailuresPerRemoteUser\` (${DEFAULT_THROTTLE.perRemoteUser.failures} by default) for one user may still log in as`,
    `its other users until it is past \`loginFailuresPerRemote\` (${DEFAULT_THROTTLE.perRemote.failures}); both count per window of \`loginWindowMs\`. A throttled`,
    'attempt is refused without checking its password. The content destination applies the same rule and',
    'numbers at `/auth/v1.0` and on its pages (option `loginThrottle`: `failuresPerRemote`, `failuresPerRemoteUser`,',
    '`windowMs`). The per-account limits (`tokensPerAccount`, `replayPerAccount`, sessions and terms) count only',
    'requests that logged in, so a stranger without the password cannot fill them.',
    '',
    'Failed logins (wrong password or unknown user; not the first, credential-less leg of digest, not a',
    'stale nonce) are logged one by one up to 10 per 10 s per device; the rest are counted into one',
    'summary line per interval (`authentication failures not logged one by one`, with counts by remote address).',
    'The control API applies the address limit to wrong bearer tokens with its defaults.',
    `A request or handshake whose \`${CLIENT_HEADER}\` header has a value other than \`dashboard\` is graded as the`,
    `client's and logged the same way: ${LOGGED_IGNORED_TAGS} per ${IGNORED_TAG_LOG_INTERVAL_MS / 1000} s per device one by one, the rest counted into one summary line.`,
    '',
  ];
  return out.join('\n');
}
