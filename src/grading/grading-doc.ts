/**
 * docs/grading.md, made from the rule table and the default thresholds so the page cannot
 * drift from the code: a test compares the committed page with this text (`npm run docs`).
 */
import { join } from 'node:path';
import { THRESHOLDS } from '../base/grading-report-shape';
import { markdownTable } from '../base/markdown-table';
import { EMULATOR_CLIENT_SESSIONS, EMULATOR_CLIENT_TERMS } from '../events/session-limits';
import { segmentsDoc, selectionDoc } from './report-options-doc';
import { RULE_IDS, RULES, type RuleId } from './rule-catalogue';

/**
 * How the rules were tried, for the page: the cases under which the reference well-behaved
 * clients got no warning or error (test/integration/grading/reference-matrix.test.ts), and the
 * one-mistake clients each rule found (mistake-matrix.test.ts). The doc test hands the tests'
 * own tables in, so the page cannot claim a case the tests do not run.
 */
export interface GradingCoverage {
  /** The reference clients, one line each (language, libraries). */
  readonly clients: readonly string[];
  /** The names of the reference matrix's cases (a fault switch and its parameters, or a scenario step). */
  readonly cases: readonly string[];
  /**
   * The one-mistake clients: the mistake, the case it ran under, the rule that names it, and
   * why that rule does not name it yet, when it does not.
   */
  readonly mistakes: readonly {
    readonly mistake: string;
    readonly under: string;
    readonly rule: RuleId;
    readonly missed?: string;
  }[];
}

/** Where the page lives, from the package root. */
export const GRADING_DOC_FILE = join(__dirname, '..', '..', 'docs', 'grading.md');

/** What the page says of the emulator's own traffic (the dashboard), which is not graded. */
const OWN_TRAFFIC: readonly string[] = [
  "## The emulator's own traffic is not graded",
  '',
  "The control API's requests (`/_emu/...`) and the dashboard's page loads (`/`, `/dashboard/...`) are",
  'not journaled. The dashboard is also a real client of the device, on the same address as yours: it',
  'calls `featureflag.cgi` and `wssession.cgi`, opens an event stream session and sends',
  '`events:configure` (an invalid filter too, when one is typed). Each of its requests sends the header',
  '`X-BWC-Emu-Client: dashboard`. Their journal entries (`http`, `auth-refused`) carry',
  '`via: "dashboard"`, and so does every entry of the stream session opened with a token it fetched',
  '(`ws-open`, `configure`, `notification`, `ws-close`, and a refused handshake). The grader leaves all',
  'of them out: an open dashboard adds no finding and meets no expectation. Its sessions fire no',
  'scenario `on:` trigger and meet no wait for a session either. The journal keeps them:',
  "`GET /_emu/journal?via=client` reads what the grader reads, `?via=dashboard` the dashboard's own.",
  '',
  "## The test's own calls are not graded",
  '',
  'A test often calls the device itself, on the same address as the client under test: to read the',
  'flags the client set, to open its own event stream and watch what the client should see, to',
  'provoke a state. Send `X-BWC-Emu-Client: test` with those requests (and with the `wssession.cgi`',
  'request whose token opens the test\'s own stream): they are journaled with `via: "test"`',
  "(`GET /_emu/journal?via=test`) and left out of the grade exactly as the dashboard's are. The",
  'control API (`/_emu/...`) is never journaled, so a test that drives the device through it needs',
  'no header.',
  '',
  'The header is opt-in, not a boundary: the device cannot tell the page or the test from a client',
  'that sends the same header, and such a client is not graded either, mistakes included. Never send',
  'it from the client under test. Only the exact values `dashboard` and `test` count; any other value',
  "is ignored (the request is graded as the client's) with a log line.",
  '',
  "The dashboard's and the test's sessions count toward the device's own limits (`maxSessions`, a `slots`",
  "fault) as any session does, but not toward the client's share (`maxSessionsPerAccount`, `maxAccountTerms`):",
  `each has a small fixed quota of its own per device, ${EMULATOR_CLIENT_SESSIONS} sessions holding ${EMULATOR_CLIENT_TERMS} filter terms`,
  'together (docs/limits.md), so the header gives no client a second share.',
  '',
];

/** The whole page; `coverage` says how the rules were tried. */
export function gradingDoc(coverage: GradingCoverage): string {
  const out: string[] = [
    '# Grading the client under test',
    '',
    '<!-- Generated from src/grading/rule-catalogue.ts and src/grading/report.ts by `npm run docs`; do not edit by hand. -->',
    '',
    'bwc-emu sees everything that crosses its sockets (the journal) and grades the client against how',
    'a device expects to be used. Each finding names the rule, its severity, the client (remote address',
    'and the user names it used), one line with the measured figures, the journal entries that show it',
    '(with their times) and what to change. A window that is not over yet when the report is made is',
    'not judged. The client is told apart by its address: run one client under test at a time, and mark',
    "the test's own calls to the device (below).",
    '',
    'Where to read it:',
    '',
    "- `GET /_emu/report` (JSON: the findings of that port's device; `?all=true` for every device of a fleet,",
    '  `/_emu/devices/{serial}/report` for another one);',
    '- `await emulator.report()` from a test (the same JSON as a typed object; `{ clientStopped: true }`',
    '  once the client under test has stopped, so a refused request it did not try again is judged at once);',
    '- `bwc-emu run [--report FILE] [--junit FILE] [--fail-on error|warning|never] -- COMMAND`: prints a',
    '  table of findings to stderr when the command ends, writes the JSON and JUnit XML (a test suite',
    '  per segment, a test case per rule and per expectation) and, with `--fail-on`, exits 3 when the',
    '  command passed but the client has a finding that severe or worse, or broke an expectation, in',
    "  any segment (default `never`: the command's own exit code). It grades once the command has ended,",
    '  as with `clientStopped`: a refusal the client did not try again is judged without waiting.',
    '',
    'A reset between tests ends a segment and keeps its findings ([below](#segments-every-tests-findings)).',
    '',
    ...OWN_TRAFFIC,
    '## Rules',
    '',
    ...markdownTable(
      ['rule', 'severity', 'finds', 'evidence'],
      RULE_IDS.map((id) => [`\`${id}\``, RULES[id].severity, RULES[id].title, RULES[id].evidence]),
    ),
  ];
  out.push('');
  for (const id of RULE_IDS) {
    const r = RULES[id];
    out.push(
      `### \`${id}\` (${r.severity})`,
      '',
      r.title + '.',
      '',
      `Why it matters: ${r.why}`,
      '',
      `Evidence: ${r.evidence}`,
      '',
      `Fix: ${r.fix}`,
      '',
      `Tested: ${testedLine(id, coverage)}`,
      '',
    );
  }
  out.push(...coverageDoc(coverage), ...EVIDENCE_DOC);
  out.push(
    '## Thresholds',
    '',
    'The timings the rules hold the client to, after the reference behaviour of clients written for',
    'real devices (reconnect back-off from about 2 s doubling to a 30 s cap, ping every 5 s).',
    '',
    ...markdownTable(
      ['threshold', 'default', 'meaning'],
      Object.entries(THRESHOLDS).map(([name, spec]) => [`\`${name}\``, String(spec.default), spec.meaning]),
    ),
    '',
    ...selectionDoc(),
    ...segmentsDoc(),
  );
  out.push(
    '## Expectations in scenarios',
    '',
    'A scenario states what the client must do after a step with an `expect:` step; the report says',
    'whether each held (`held`, `broken`, or `pending` while its time runs):',
    '',
    '```yaml',
    'timeline:',
    '  - { at: 10s, fault: { name: reboot, downMs: 5000, refuseLoginsMs: 5000 } }',
    '  - expect: { name: back after reboot, that: configured, within: 60s }',
    '  - expect: { that: configured, topic: "tns1:VideoSource/MotionAlarm", within: 60s }',
    '```',
    '',
    '`that: connected` waits for a new event stream session; `that: configured` for a successful',
    '`events:configure` (selecting `topic`, when given). The time counts from the step: put it after',
    'the fault (an action such as `reboot` ends when the device is back). A broken expectation fails',
    '`bwc-emu run --fail-on` at any level but `never`, and is a failed test case in `--junit`.',
    '',
  );
  return `${out.join('\n').trimEnd()}\n`;
}

/** One rule's "Tested:" line: silent for the reference clients in every case, and the mistakes it named. */
function testedLine(id: RuleId, coverage: GradingCoverage): string {
  const silent =
    `no warning or error for the ${coverage.clients.length} reference clients in any of the ` +
    `${coverage.cases.length} [fault cases](#how-the-rules-were-tried)`;
  const found = coverage.mistakes.filter((m) => m.rule === id && m.missed === undefined);
  if (found.length === 0) return `${silent}; no one-mistake client is written for it yet.`;
  const named = found.map((m) => `${m.mistake} (${m.under})`).join('; ');
  return `${silent}; it names ${found.length === 1 ? 'this mistake' : 'these mistakes'}: ${named}.`;
}

/** The section on how the rules were tried: the reference clients, the cases, the one-mistake clients. */
function coverageDoc(coverage: GradingCoverage): string[] {
  return [
    '## How the rules were tried',
    '',
    'A rule that flags a correct client costs more trust than one that misses a mistake, so every',
    'rule runs in CI against correct clients under every fault the emulator can inject. The reference',
    'well-behaved clients (examples/reference-clients, libraries with their default behaviour):',
    '',
    ...coverage.clients.map((c) => `- ${c}`),
    '',
    'run each on its own device under each case below, with the timings shortened (back-off from',
    '150 ms, pings every second) and the thresholds scaled to them, and must get no warning and no',
    'error from any rule (infos are allowed: `auth-recovered` tells of a nonce a reboot forgot). A',
    'fault switch without a case fails CI. The cases:',
    '',
    coverage.cases.map((c) => `\`${c}\``).join(', ') + '.',
    '',
    `The one-mistake clients are the Python reference client with one behaviour changed, as teams get`,
    'it wrong; each runs under the case that exposes it, and the rule that names the mistake must find it:',
    '',
    ...markdownTable(
      ['mistake', 'under', 'named by'],
      coverage.mistakes.map((m) => [
        m.mistake,
        m.under,
        m.missed === undefined ? `\`${m.rule}\`` : `not named yet (\`${m.rule}\` should): ${m.missed}`,
      ]),
    ),
    '',
  ];
}

/** How to read a finding's evidence. */
const EVIDENCE_DOC: readonly string[] = [
  '## How to read the evidence',
  '',
  "A finding's `evidence` lists the journal entries that show it, oldest first (at most 10;",
  '`moreEvidence` counts the rest). Each has its `seq` and `time`: read the whole journal around them',
  'with `GET /_emu/journal?since=SEQ` (the `seq` just before), or `emulator.journal({ since })`.',
  '',
  '- `http`: one request and its answer: `status`, `auth` (the scheme that worked), `user`, `ms`;',
  '  `error` is the JSON-RPC error a CGI answered with HTTP 200, `call` the JSON-RPC method, and `body`',
  '  the start of what was sent (only for a request answered with an error; values whose names look',
  "  secret are `[redacted]`). A `wssession.cgi` answer has `token`: the token's number on the device.",
  '  `override` names the answer override (set by the test) that answered or delayed the request.',
  '- `auth-refused`: a request or handshake refused for its credentials: `code` says why (`NO_CREDENTIALS`',
  '  is the normal first leg of digest), `scheme` what the client tried, `stale` whether the 401 said',
  '  `stale=true`; `token` is the number of a refused session token the device still knows.',
  '- `ws-open` / `ws-close`: a session and its end; `by` says who ended it, `code` and `reason` the',
  "  close frame; `token` on `ws-open` is the number of the token that opened it. A token's fetch, the",
  '  session it opened and a refused reuse share that number (never the token itself).',
  '- `ws-refused`: a handshake refused for something other than credentials (no slot, no WebSocket).',
  '- `configure`: an `events:configure` and its answer (`error` when refused), with the filters sent.',
  '- `message-refused`: a stream message the device could not take (`code` as answered, `sent` its start).',
  '- `notification`: one event sent to a session; copies of one event share its `event` number.',
  '- `fault`: a fault switch on or off, or an action begun or over: what the device did, not the client.',
  '',
  "The `client` of a finding is the remote address and the user names it used; the test's own calls",
  '(`X-BWC-Emu-Client: test`) and the dashboard are never in it. `segment` names the test (the reset',
  'that began it) the finding belongs to.',
  '',
];
