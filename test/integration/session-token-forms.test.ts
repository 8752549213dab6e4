/**
 * Session tokens in the device's documented form (19 decimal digits) by default, as real devices
 * issue them: a client that checks the body with `^-?\d+$` subscribes, a client that parses it as
 * JSON loses precision as it would on a real device, and the token never reaches a log line or the
 * journal. The alphanumeric form stays available by option, by CLI flag and in a persona's table.
 */
import { type EmulatorHandle, loadScenario, startDevice, startEmulator } from '../../src';
import { optionsFromFlags } from '../../src/cli/device-options-from';
import { deviceFlags } from '../../src/cli/device-flags';
import { PERSONAS } from '../../src/device/persona';
import { digestRequest } from '../helpers/digest-request';
import { openStream, refusedHandshake, streamTarget, wsUrl } from '../helpers/event-stream-client';
import { LogTap } from '../helpers/event-stream-log';

const PORT = 'tns1:Device/tnsvendor:IO/Port';

describe('session token form', () => {
  it.each(['GET', 'POST'])('%s wssession.cgi answers 19 decimal digits by default', async (method) => {
    const device = await startDevice({ port: 0 });
    try {
      expect(device.options.sessionTokenFormat).toBe('decimal');
      const answer = await digestRequest(device.url, { method, path: new URL(device.urls.sessionToken).pathname });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatch(/^\d{19}$/);
      expect(device.issueToken()).toMatch(/^\d{19}$/);
    } finally {
      await device.close();
    }
  });

  it('a client that checks the body with ^-?\\d+$ before use subscribes and gets events', async () => {
    const device = await startDevice({ port: 0, initialStates: [] });
    try {
      const { body } = await digestRequest(device.url, { path: new URL(device.urls.sessionToken).pathname });
      // What the public client does: refuse anything but an integer.
      if (!/^-?\d+$/.test(body)) throw new Error(`not a session token: ${body}`);
      const client = await openStream(wsUrl(device, streamTarget(device, `?sources=events&wssession=${body}`)));
      try {
        await client.configure([{ topicFilter: PORT }], 'probe');
        device.publish(PORT, { source: { port: '9' }, data: { state: '1' } });
        expect((await client.next()).params?.notification.message.source).toEqual({ port: '9' });
      } finally {
        await client.close();
      }
    } finally {
      await device.close();
    }
  });

  it('a client that parses the body as JSON gets a number that lost precision, and its token is refused', async () => {
    const device = await startDevice({ port: 0 });
    try {
      const { body } = await digestRequest(device.url, { path: new URL(device.urls.sessionToken).pathname });
      const parsed = JSON.parse(body) as number;
      expect(typeof parsed).toBe('number');
      expect(BigInt(body) > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true);
      // The bug a real device's token shows: a double holds about 16 digits of 19. At most one
      // of 2^63 - 10^18 draws happens to be a double exactly: then the string differs anyway.
      expect(String(parsed) !== body || BigInt(parsed) !== BigInt(body)).toBe(true);
      const refused = await refusedHandshake(
        wsUrl(device, streamTarget(device, `?sources=events&wssession=${String(parsed)}`)),
      );
      expect(refused.status).toBe(401);
    } finally {
      await device.close();
    }
  });

  it('sessionTokenFormat alphanumeric gives 32 letters and digits that open the stream', async () => {
    const device = await startDevice({ port: 0, sessionTokenFormat: 'alphanumeric' });
    try {
      const { body } = await digestRequest(device.url, { path: new URL(device.urls.sessionToken).pathname });
      expect(body).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(body).toMatch(/[A-Za-z]/);
      const client = await openStream(wsUrl(device, streamTarget(device, `?sources=events&wssession=${body}`)));
      await client.close();
    } finally {
      await device.close();
    }
  });

  it('an unknown form is refused naming the option and the forms', async () => {
    await expect(startDevice({ port: 0, sessionTokenFormat: 'hex' as never })).rejects.toThrow(
      'sessionTokenFormat "hex" must be one of decimal, alphanumeric',
    );
  });

  it('every persona issues decimal tokens, as the devices they stand for do', () => {
    for (const persona of Object.values(PERSONAS)) expect(persona.sessionTokenFormat).toBe('decimal');
  });

  it('--session-token-format alphanumeric reaches the device options; left out, the persona decides', async () => {
    expect(deviceFlags()['session-token-format'].choices).toEqual(['decimal', 'alphanumeric']);
    const io = { stdout: () => undefined, stderr: () => undefined } as never;
    const base = { port: 0, host: '127.0.0.1', user: 'root', password: 'pass', auth: 'both', digestAlgorithms: 'MD5' };
    const args = {
      ...base,
      ...{ discoveryAuth: 'anonymous', digestReplay: 'lenient', timestamps: 'utc', tls: false, speed: 1 },
      ...{ control: true, deviceIndexBase: 0, 'log-level': 'silent' },
    };
    const given = await optionsFromFlags({ ...args, sessionTokenFormat: 'alphanumeric' } as never, io, () => {});
    expect(given.device.sessionTokenFormat).toBe('alphanumeric');
    const left = await optionsFromFlags(args as never, io, () => {});
    expect('sessionTokenFormat' in left.device).toBe(false);
  });
});

describe('a decimal session token is never written down', () => {
  let emulator: EmulatorHandle | undefined;
  afterEach(async () => {
    await emulator?.close();
    emulator = undefined;
  });

  it('in no log line and no journal entry: fetched, used, reused, expired, altered', async () => {
    const tap = new LogTap();
    const loaded = loadScenario('name: quiet\ntimeline:\n  - pause: 1h\n', 'quiet.yaml');
    if (!loaded.ok) throw new Error('scenario');
    emulator = await startEmulator({
      scenarios: [{ scenario: loaded.value }],
      device: { port: 0, logger: tap.logger, tokenLifetimeMs: 200 },
    });
    const device = emulator.devices[0].device;
    const path = new URL(device.urls.sessionToken).pathname;
    const tokens: string[] = [];
    const fetch = async (): Promise<string> => {
      const { body } = await digestRequest(device.url, { path });
      tokens.push(body);
      return body;
    };
    const streamWith = (token: string): string =>
      wsUrl(device, streamTarget(device, `?sources=events&wssession=${token}`));
    const used = await fetch();
    await (await openStream(streamWith(used))).close();
    expect((await refusedHandshake(streamWith(used))).status).toBe(401);
    const altered = await fetch();
    expect((await refusedHandshake(streamWith(String(Number(altered))))).status).toBe(401);
    expect((await refusedHandshake(streamWith(`%22${altered}%22`))).status).toBe(401);
    const expired = await fetch();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect((await refusedHandshake(streamWith(expired))).status).toBe(401);
    expect(tokens.every((t) => /^\d{19}$/.test(t))).toBe(true);

    const lines = tap.entries.map((entry) => JSON.stringify(entry));
    const journal = emulator.journal().map((entry) => JSON.stringify(entry));
    expect(lines.length).toBeGreaterThan(5);
    expect(journal.some((entry) => entry.includes('wssession'))).toBe(true);
    for (const token of tokens) {
      // The token itself, and the 16 leading digits a double keeps of it.
      for (const text of [token, token.slice(0, 16)]) {
        expect(lines.filter((line) => line.includes(text))).toEqual([]);
        expect(journal.filter((entry) => entry.includes(text))).toEqual([]);
      }
    }
  });
});
