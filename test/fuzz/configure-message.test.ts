/**
 * Fuzz surface 3, `events:configure` over an open event stream session: filter lists of
 * grammar-made and edited topic and content filters, wrong types, odd envelopes, edited
 * JSON, binary frames, messages around `maxMessageBytes`. Every message gets an answer,
 * success (`data: {}`) or an error 2100-2107 (2107 exactly when over the limit), with the
 * context echoed, and the session stays open.
 */
import {
  type StreamClient,
  type StreamMessage,
  notificationOf,
  openWithDigest,
  openWithToken,
} from '../helpers/event-stream-client';
import { type ConfigureCase, configureCase } from './configure-arbitraries';
import { type FuzzDevice, startFuzzDevice } from './fuzz-device';
import { runFuzz } from './fuzz-run';
import { CASE_TIMEOUT_MS, fuzzSettings } from './fuzz-settings';
import { Tally } from './fuzz-tally';
import { contextOf } from './json-context';

const settings = fuzzSettings(400);
const tally = new Tally('configure', settings.seed);

const MAX_MESSAGE = 16 * 1024;

let fuzz: FuzzDevice;
/** The session the cases go to; a new one when a case closed it (that case has failed). */
let client: StreamClient | undefined;
beforeAll(async () => {
  fuzz = await startFuzzDevice({ maxMessageBytes: MAX_MESSAGE });
});
afterAll(async () => {
  tally.report();
  await client?.close();
  await fuzz.device.close();
});

async function session(): Promise<StreamClient> {
  if (client && client.closeInfo === undefined) return client;
  client = await openWithToken(fuzz.device);
  return client;
}

/** The next message that is not a notification (the answer to the last request). */
async function answerOn(stream: StreamClient): Promise<StreamMessage> {
  for (;;) {
    const message = await stream.next(CASE_TIMEOUT_MS);
    // A notification has params and neither data nor error (an error answer may echo the method events:notify).
    if (message.params === undefined || message.data !== undefined || message.error !== undefined) return message;
  }
}

/** Checks one answer; returns the tally label (`ok` or `rpc <code>`). */
function judge(c: ConfigureCase, answer: StreamMessage, stream: StreamClient): string {
  if (stream.closeInfo) throw new Error(`the session closed: ${stream.closeInfo.code} ${stream.closeInfo.reason}`);
  const size = Buffer.byteLength(c.payload);
  const shown = JSON.stringify(answer).slice(0, 300);
  if (typeof answer.apiVersion !== 'string') throw new Error(`no apiVersion: ${shown}`);
  if ((answer.data === undefined) === (answer.error === undefined))
    throw new Error(`not one of data and error: ${shown}`);
  const context = contextOf(c.payload);
  if (!c.binary && size <= MAX_MESSAGE && context !== undefined && answer.context !== context)
    throw new Error(`context ${JSON.stringify(context)} not echoed: ${shown}`);
  if (answer.data !== undefined) {
    if (c.binary || size > MAX_MESSAGE) throw new Error(`served a ${c.binary ? 'binary' : `${size}-byte`} message`);
    if (answer.method !== 'events:configure' || JSON.stringify(answer.data) !== '{}')
      throw new Error(`odd success: ${shown}`);
    return 'ok';
  }
  const { code, message } = answer.error ?? { code: NaN, message: '' };
  if (!Number.isInteger(code) || code < 2100 || code > 2107) throw new Error(`error code ${code}: ${shown}`);
  if (typeof message !== 'string' || message === '') throw new Error(`error without a message: ${shown}`);
  if (!c.binary && size > MAX_MESSAGE !== (code === 2107)) throw new Error(`${size} bytes answered ${code}`);
  return `rpc ${code}`;
}

/** A new digest session still configures and gets a published event. */
async function alive(): Promise<void> {
  const { client: fresh } = await openWithDigest(fuzz.device);
  try {
    const answer = await fresh.configure([{ topicFilter: 'tns1:Fuzz/Alive' }], 'alive');
    if (answer.error) throw new Error(`configure refused: ${JSON.stringify(answer.error)}`);
    fuzz.device.publish('tns1:Fuzz/Alive', { data: { n: '1' } });
    const topic = notificationOf(await fresh.next()).topic;
    if (topic !== 'tns1:Fuzz/Alive') throw new Error(`unexpected notification ${topic}`);
  } finally {
    await fresh.close();
  }
}

it(
  `answers ${settings.cases} random and mutated configure messages with success or 2100-2107, the session open`,
  async () => {
    await runFuzz({
      settings,
      tally,
      errors: fuzz.errors,
      arbitrary: configureCase(MAX_MESSAGE),
      alive,
      check: async (c) => {
        const stream = await session();
        stream.send(c.binary ? Buffer.from(c.payload, 'utf8') : c.payload);
        return judge(c, await answerOn(stream), stream);
      },
    });
    expect(tally.count('ok')).toBeGreaterThan(0);
    expect(tally.count('rpc 2104')).toBeGreaterThan(0);
  },
  settings.timeoutMs,
);
