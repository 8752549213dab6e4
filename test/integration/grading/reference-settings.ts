/**
 * The settings of the reference-client matrix (reference-matrix.test.ts): the clients' shortened
 * timings, the grading thresholds scaled to them, and the scenario every device plays.
 */
import type { GradingThresholds } from '../../../src/grading/report';

export const PORT = 'tns1:Device/tnsvendor:IO/Port';
export const MOTION = 'tns1:VideoSource/MotionAlarm';
export const VIRTUAL = 'tns1:Device/tnsvendor:IO/VirtualInput';

/**
 * The clients' timings in seconds (their options), shortened from the real-life defaults:
 * back-off 2 s doubling to 30 s, listAll every 10 s, CGI timeout 10 s (5 s here: the machine
 * is busy while 50 clients start), ping every 10 s and pong within 5 s. The pings keep the 2:1
 * of real life, which websocket-client's check needs (it looks for the missing pong only between
 * the timeout and the next ping), and a pong timeout that a busy CI machine's pauses stay under.
 */
export const CLIENT_TIMINGS = {
  'backoff-start': 0.15,
  'backoff-cap': 1.2,
  'ping-interval': 1,
  'pong-timeout': 0.5,
  'poll-interval': 1,
  'http-timeout': 5,
} as const;

/**
 * The grading thresholds scaled to {@link CLIENT_TIMINGS} as the defaults are to the real-life
 * timings: retries at least half the first back-off apart; back within 4 s of the device's
 * return (at most the 1.8 s of refused logins, one back-off at its 1.2 s cap and a slow request
 * are needed); a stall noticed within two ping intervals, websocket-client's fixed 3 s
 * wait for the answer to its close and a back-off (20 + 3 + 2 = 25 s of the default 30 s in real
 * life, 2 + 3 + 0.15 s of 7 s here); CGI
 * calls measured against ten times the client's rate (60 a minute for a poll every 10 s).
 * The counts keep their defaults.
 */
export const THRESHOLDS: Partial<GradingThresholds> = {
  minRetryIntervalMs: 100,
  minRetryRun: 4,
  reconnectWithinMs: 4000,
  configureWithinMs: 1500,
  staleRetryWithinMs: 1000,
  recoverWithinMs: 1500,
  stallDetectWithinMs: 7000,
  maxSessionsPerClient: 2,
  pollingWindowMs: 6000,
  pollingMaxRequests: 60,
  minUnusedTokens: 3,
  maxRefusedRepeats: 2,
};

/** How long a client keeps running after its case's disturbance: longer than every rule's window. */
export const SETTLE_MS = 4500;

/** Every device's scenario: the Port state toggling, motion, and the storm's topic named. */
export const BASE_SCENARIO = [
  'name: reference matrix',
  'states:',
  `  - { topic: "${PORT}", source: { port: "1" }, data: { state: "0" } }`,
  'groups:',
  '  toggle:',
  `    - { set: { topic: "${PORT}", source: { port: "1" }, data: { state: "1" } } }`,
  `    - { after: 500ms, set: { topic: "${PORT}", source: { port: "1" }, data: { state: "0" } } }`,
  'timeline:',
  // Each `every` in its own `steps` at 0: a step after an endless `every` would never come.
  `  - { at: 0s, steps: [{ every: 500ms, emit: { topic: "${MOTION}", data: { State: "1" } } }] }`,
  '  - { at: 0s, steps: [{ every: 1s, run: toggle }] }',
  `  - { at: 1h, emit: { topic: "${VIRTUAL}", data: { seq: "0" } } }`,
].join('\n');

/** The topics the clients subscribe to, one filter each. */
export const TOPICS = [PORT, MOTION, VIRTUAL];

/** A client's command-line options for {@link CLIENT_TIMINGS} and {@link TOPICS}. */
export const CLIENT_OPTIONS: readonly string[] = [
  ...Object.entries(CLIENT_TIMINGS).flatMap(([name, value]) => [`--${name}`, String(value)]),
  ...TOPICS.flatMap((topic) => ['--topic', topic]),
];
