/**
 * The device's header limits over a real socket: Node used to keep the first ~1,000
 * header lines of a request and drop the rest without a word, and answered headers
 * past its 16 KiB limit with 400. Both are now 431, Request Header Fields Too Large.
 */
import { connect } from 'node:net';
import { deviceStarter } from '../helpers/devices';

const start = deviceStarter();

/** Sends `GET /` with `lines` extra header lines of `bytes` value bytes each; resolves with the status line. */
function statusOf(port: number, lines: number, bytes = 1): Promise<string> {
  const headers = Array.from({ length: lines }, (_, i) => `X-Filler-${i}: ${'v'.repeat(bytes)}\r\n`).join('');
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET /axis-cgi/basicdeviceinfo.cgi HTTP/1.1\r\nHost: x\r\n${headers}\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) socket.destroy();
    });
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe('device header limits', () => {
  it('1,000 header lines are served; 1,001 are 431', async () => {
    const device = await start();
    expect(await statusOf(device.port, 999)).not.toMatch(/ 431 /);
    expect(await statusOf(device.port, 1000)).toMatch(/^HTTP\/1\.1 431 /);
  });

  it("headers past Node's size limit are 431, not 400", async () => {
    const device = await start();
    expect(await statusOf(device.port, 1, 20_000)).toMatch(/^HTTP\/1\.1 431 /);
  });
});
