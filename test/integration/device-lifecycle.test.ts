/** Starting and stopping a device: close is prompt, idempotent and leaves nothing open; start-up errors. */
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { basicAuthorization, sendRequest } from '../helpers/http';
import { type DeviceOptions, EmulatorError, startDevice } from '../../src';

/** Resolves with 'closed' if `promise` settles first, 'timeout' after `ms` (the timer is always cleared). */
async function within(promise: Promise<unknown>, ms: number): Promise<'closed' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise.then(() => 'closed' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** TCP handles (servers and sockets) this process holds. */
function tcpHandles(): number {
  return process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap' || r === 'TCPSocketWrap').length;
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

function closedSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) resolve();
    else socket.once('close', () => resolve());
  });
}

describe('close()', () => {
  it('resolves, and the port no longer accepts connections', async () => {
    const device = await startDevice({ port: 0 });
    expect((await sendRequest(device.url, { path: '/svc-cgi/wssession.cgi' })).status).toBe(401);
    await expect(device.close()).resolves.toBeUndefined();
    await expect(sendRequest(device.url, { path: '/svc-cgi/wssession.cgi' })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('is idempotent: every call gets the same promise, also after closing', async () => {
    const device = await startDevice({ port: 0 });
    const first = device.close();
    const second = device.close();
    expect(second).toBe(first);
    await first;
    expect(device.close()).toBe(first);
    await expect(device.close()).resolves.toBeUndefined();
  });

  it('resolves promptly with a keep-alive connection open', async () => {
    const device = await startDevice({ port: 0, basicOverHttp: true });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const answer = await sendRequest(device.url, {
        path: '/svc-cgi/wssession.cgi',
        agent,
        headers: { Authorization: basicAuthorization('root', 'pass') },
      });
      expect(answer.status).toBe(200);
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
      expect(await within(device.close(), 3_000)).toBe('closed');
    } finally {
      agent.destroy();
    }
  });

  it('resolves promptly with a request half sent, and ends that connection', async () => {
    const device = await startDevice({ port: 0 });
    const socket = await openSocket(device.port);
    socket.write('POST /svc-cgi/featureflag.cgi HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n');
    const ended = closedSocket(socket);
    expect(await within(device.close(), 3_000)).toBe('closed');
    expect(await within(ended, 3_000)).toBe('closed');
  });

  it('leaves no TCP handles behind', async () => {
    const before = tcpHandles();
    const device = await startDevice({ port: 0 });
    const socket = await openSocket(device.port);
    const agent = new Agent({ keepAlive: true });
    await sendRequest(device.url, { path: '/svc-cgi/wssession.cgi', agent });
    expect(tcpHandles()).toBeGreaterThan(before);
    const ended = closedSocket(socket);
    await device.close();
    await ended;
    agent.destroy();
    // Destroyed client sockets release their handle on the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(tcpHandles()).toBe(before);
  });

  it('a device can be started again on the port it freed', async () => {
    const first = await startDevice({ port: 0 });
    const port = first.port;
    await first.close();
    const second = await startDevice({ port });
    try {
      expect(second.port).toBe(port);
      expect((await sendRequest(second.url, { path: '/svc-cgi/wssession.cgi' })).status).toBe(401);
    } finally {
      await second.close();
    }
  });
});

describe('start-up', () => {
  it('reports its URL, port, host, serial and options', async () => {
    const device = await startDevice({ port: 0, serial: 'TEST01' });
    try {
      expect(device.host).toBe('127.0.0.1');
      expect(device.port).toBeGreaterThan(0);
      expect(device.url).toBe(`http://127.0.0.1:${device.port}`);
      expect(device.serial).toBe('TEST01');
      expect(device.realm).toBe('SVC_TEST01');
      expect(device.certificate).toBeUndefined();
      expect(device.options).toMatchObject({
        auth: 'both',
        digestAlgorithms: ['MD5'],
        digestReplay: 'lenient',
        cgiPrefix: '/svc-cgi',
        tokenLifetimeMs: 15_000,
      });
    } finally {
      await device.close();
    }
  });

  it('a port already in use is EmulatorError PORT_IN_USE', async () => {
    const holder = await startDevice({ port: 0 });
    try {
      const attempt = startDevice({ port: holder.port });
      await expect(attempt).rejects.toBeInstanceOf(EmulatorError);
      await expect(attempt).rejects.toMatchObject({
        code: 'PORT_IN_USE',
        message: expect.stringContaining(String(holder.port)) as string,
      });
    } finally {
      await holder.close();
    }
  });

  const badOptions: Array<[string, DeviceOptions, RegExp]> = [
    ['an unknown digest algorithm', { digestAlgorithms: ['SHA-1' as never] }, /digest algorithm "SHA-1"/],
    ['an empty algorithm list', { digestAlgorithms: [] }, /digestAlgorithms/],
    ['a prefix without a leading slash', { cgiPrefix: 'svc-cgi' }, /cgiPrefix "svc-cgi"/],
    ['a prefix with a space', { cgiPrefix: '/svc cgi' }, /cgiPrefix/],
    ['a prefix "/"', { cgiPrefix: '/' }, /cgiPrefix/],
    ['a bad wsPrefix', { wsPrefix: 'ws' }, /wsPrefix "ws"/],
    ['a negative port', { port: -1 }, /port must be a whole number from 0 to 65535, not -1/],
    ['a port over 65535', { port: 70_000 }, /port .*70000/],
    ['a fractional port', { port: 80.5 }, /port .*80\.5/],
    ['an unknown auth mode', { auth: 'kerberos' as never }, /auth "kerberos"/],
    ['an unknown replay mode', { digestReplay: 'paranoid' as never }, /digestReplay "paranoid"/],
    ['a bad serial', { serial: 'has space' }, /serial "has space"/],
    ['no accounts', { accounts: [] }, /accounts/],
    [
      'an account with an unknown role',
      { accounts: [{ name: 'x', password: 'y', role: 'god' as never }] },
      /role "god"/,
    ],
    ['a zero token lifetime', { tokenLifetimeMs: 0 }, /tokenLifetimeMs/],
    ['a zero nonce lifetime', { nonceLifetimeMs: 0 }, /nonceLifetimeMs/],
    ['a tiny maxBodyBytes', { maxBodyBytes: 10 }, /maxBodyBytes/],
    [
      'a flag defined twice',
      {
        flags: [
          { name: 'a', description: '', defaultValue: false },
          { name: 'a', description: '', defaultValue: true },
        ],
      },
      /flag "a" is defined twice/,
    ],
    ['a flag with a bad name', { flags: [{ name: '1bad', description: '', defaultValue: false }] }, /flag name "1bad"/],
  ];
  it.each(badOptions)('%s is EmulatorError BAD_OPTION naming the option', async (_what, options, message) => {
    const attempt = startDevice({ port: 0, ...options });
    await expect(attempt).rejects.toBeInstanceOf(EmulatorError);
    await expect(attempt).rejects.toMatchObject({
      code: 'BAD_OPTION',
      message: expect.stringMatching(message) as string,
    });
  });
});
