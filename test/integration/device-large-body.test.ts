/**
 * A request body far over `maxBodyBytes`, written in one go: every device endpoint that
 * reads a body answers (2107, or 413 for param.cgi) and the client receives that answer.
 * The device reads and discards the rest of the body before it closes the connection: a
 * connection closed with unread data is reset by the kernel, and a blocking client (one
 * that sends the whole request, then reads) sees its send fail and never reads the answer.
 */
import { parseResponse } from '../helpers/event-stream-raw';
import { basicAuthorization } from '../helpers/http';
import { rawHttpExchange, requestBytes, sendAllThenRead } from '../helpers/raw-http';
import { type DeviceHandle, startDevice } from '../../src';

const BODY = Buffer.alloc(10 * 1024 * 1024, 'x');
const HEADERS = { Authorization: basicAuthorization('root', 'pass'), 'Content-Type': 'application/json' };
const TOO_LARGE = `Request too large: the limit is ${64 * 1024} bytes`;

let device: DeviceHandle;
beforeEach(async () => {
  device = await startDevice({ port: 0, auth: 'basic', accounts: [{ name: 'root', password: 'pass', role: 'admin' }] });
});
afterEach(async () => {
  await device.close();
});

/** What a blocking client saw of one request: the write's error (if any), the status and body of the answer. */
interface Outcome {
  error: string | undefined;
  status: number | undefined;
  body: string;
  connection: string | undefined;
}

/** Posts the 10 MiB body to `path` `attempts` times, one connection each, every request in one write. */
async function postLargeBody(path: string, attempts: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < attempts; i++) {
    const { received, error } = await rawHttpExchange(device.port, requestBytes('POST', path, HEADERS, BODY));
    const answer = received.length > 0 ? parseResponse(received) : undefined;
    outcomes.push({
      error,
      status: answer?.status,
      body: answer?.body.toString('utf8') ?? '',
      connection: answer?.header('connection')[0],
    });
  }
  return outcomes;
}

describe('a 10 MiB body written in one go', () => {
  it('featureflag.cgi: 2107 with Connection: close, 20 times in 20, the whole request accepted', async () => {
    const outcomes = await postLargeBody('/svc-cgi/featureflag.cgi', 20);
    const answer = { apiVersion: '1.0', error: { code: 2107, message: TOO_LARGE } };
    for (const outcome of outcomes)
      expect({ ...outcome, body: JSON.parse(outcome.body) as unknown }).toEqual({
        error: undefined,
        status: 200,
        body: answer,
        connection: 'close',
      });
  });

  it.each([['apidiscovery.cgi'], ['basicdeviceinfo.cgi']])('%s: 2107, the whole request accepted', async (cgi) => {
    for (const outcome of await postLargeBody(`/svc-cgi/${cgi}`, 5)) {
      expect(outcome).toMatchObject({ error: undefined, status: 200, connection: 'close' });
      expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 2107, message: TOO_LARGE } });
    }
  });

  it('param.cgi: 413, the whole request accepted', async () => {
    for (const outcome of await postLargeBody('/svc-cgi/param.cgi?action=list', 5))
      expect(outcome).toEqual({ error: undefined, status: 413, body: `# Error: ${TOO_LARGE}\n`, connection: 'close' });
  });
});

/** A 2 MiB body behind the headers `framing` (its length, or how it is coded), as a client at fault sends it. */
function wrongLength(framing: string, chunked = false): Buffer {
  const head = [
    'POST /svc-cgi/featureflag.cgi HTTP/1.1',
    'Host: 127.0.0.1',
    ...Object.entries(HEADERS).map(([n, v]) => `${n}: ${v}`),
  ];
  const body = BODY.subarray(0, 2 * 1024 * 1024);
  const coded = chunked
    ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
    : body;
  return Buffer.concat([
    Buffer.from(`${[...head, ...(framing ? [framing] : [])].join('\r\n')}\r\n\r\n`, 'latin1'),
    coded,
  ]);
}

describe('a 2 MiB body with a wrong length, from a client that sends it all before it reads', () => {
  // What follows the body the device read (the rest of a short one) is read and thrown away after
  // the answer, never parsed into a second answer, and the connection is closed without a reset.
  it.each([
    ['a short Content-Length over the limit', 'Content-Length: 100000', false, 200, 2107],
    ['a short Content-Length of 1 MiB', 'Content-Length: 1048576', false, 200, 2107],
    ['chunked', 'Transfer-Encoding: chunked', true, 200, 2107],
    ['a short Content-Length under the limit (its 10 bytes are the body)', 'Content-Length: 10', false, 200, 2101],
    ['no Content-Length (no body: the 2 MiB are no request)', '', false, 200, 2101],
    ['an empty Content-Length (malformed: 400)', 'Content-Length: ', false, 400, undefined],
    [
      'chunked and a Content-Length (malformed: 400)',
      'Transfer-Encoding: chunked\r\nContent-Length: 100',
      true,
      400,
      undefined,
    ],
  ])('%s: the whole answer, then the close, 5 times in 5', async (_what, framing, chunked, status, code) => {
    for (let i = 0; i < 5; i++) {
      const outcome = await sendAllThenRead(device.port, wrongLength(framing, chunked));
      expect({ sendError: outcome.sendError, error: outcome.error }).toEqual({
        sendError: undefined,
        error: undefined,
      });
      const answer = parseResponse(outcome.received);
      expect([answer.status, answer.header('connection')]).toEqual([status, ['close']]);
      // One answer, whole, and nothing after it.
      const length = Number(answer.header('content-length')[0]);
      expect(answer.body.length).toBe(length);
      if (code !== undefined)
        expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({ apiVersion: '1.0', error: { code } });
    }
  });
});
