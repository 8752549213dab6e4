/**
 * docs/grading.md, made from the rule table and the default thresholds so the page cannot
 * drift from the code: a test compares the committed page with this text (`npm run docs`).
 */
import { join } from 'node:path';
import { markdownTable } from '../base/markdown-table';
import { EMULATOR_CLIENT_SESSIONS, EMULATOR_CLIENT_TERMS } from '../events/session-limits';
import { DEFAULT_THRESHOLDS, type GradingThresholds } from './report';
import { segmentsDoc, selectionDoc } from './report-options-doc';
import { RULE_IDS, RULES } from './rules';

/** Where the page lives, from the package root. */
export const GRADING_DOC_FILE = join(__dirname, '..', '..', 'docs', 'grading.md');

/** What each threshold means (the keys of {@link GradingThresholds}). */
const THRESHOLD_MEANING: Record<keyof GradingThresholds, string> = {
  minRetryIntervalMs: 'refused attempts in a row closer than this (median) are "no back-off"',
  minRetryRun: 'refused attempts in a row before the back-off is judged',
  reconnectWithinMs:
    'after the device ended its session (or came back from a reboot), the client has a session again within this',
  configureWithinMs: 'a new session is configured within this',
  staleRetryWithinMs: 'after `stale=true` the request is repeated within this',
  recoverWithinMs:
    'a request refused for its credentials whose next try got past them within this recovered (`auth-recovered`, an info)',
  stallDetectWithinMs: 'a stall whose pings go unanswered is noticed (a new session) within this',
  maxSessionsPerClient: 'sessions one client holds on one device at once',
  pollingWindowMs: "the window a client's requests to one CGI method are counted over (`polling`)",
  pollingMaxRequests:
    'requests to one CGI method (path and JSON-RPC `method`) one client makes within the window: one a second; a call every few seconds, or a 503 retried with back-off, stays far below',
  minUnusedTokens:
    'session tokens a client fetched and never used for a handshake before `token-unused` speaks: one is a client stopping between its fetch and its connect',
  maxRefusedRepeats:
    'times a refused request (the same body, the same error answer) may be sent again after its refusal before `refused-repeated` speaks: a retry or two',
};

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

/** The whole page. */
export function gradingDoc(): string {
  const out: string[] = [
    '# Grading the client under test',
    '',
    '<!-- Generated from src/grading/rules.ts and src/grading/report.ts by `npm run docs`; do not edit by hand. -->',
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
      `Fix: ${r.fix}`,
      '',
    );
  }
  out.push(
    '## Thresholds',
    '',
    'The timings the rules hold the client to, after the reference behaviour of clients written for',
    'real devices (reconnect back-off from about 2 s doubling to a 30 s cap, ping every 5 s).',
    '',
    ...markdownTable(
      ['threshold', 'default', 'meaning'],
      (Object.entries(DEFAULT_THRESHOLDS) as [keyof GradingThresholds, number][]).map(([key, value]) => [
        `\`${key}\``,
        String(value),
        THRESHOLD_MEANING[key],
      ]),
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
