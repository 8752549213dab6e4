/**
 * Interop with a scripted client written with Debian's python3-websockets: token
 * from wssession.cgi with requests' HTTPDigestAuth, connect, events:configure,
 * receive notifications (test/interop/python-websockets-client.py). Runs Debian's
 * interpreter /usr/bin/python3, not whatever python3 is first on PATH. Skipped,
 * with a message, when that interpreter or its requests/websockets modules are missing.
 */
import { join } from 'node:path';
import { pythonModules, runPythonScript, type ScriptRun } from '../helpers/python-script';
import { deviceStarter } from '../helpers/devices';
import type { DeviceHandle } from '../../src';

const SCRIPT = join(__dirname, 'python-websockets-client.py');
const versions = pythonModules(['requests', 'websockets'], 'python-websockets');
const describeWithPython = versions ? describe : describe.skip;

const runScript = (args: string[], onLine?: (line: Record<string, unknown>) => void): Promise<ScriptRun> =>
  runPythonScript(SCRIPT, args, onLine);

const CONFIGURE_ANSWER = { apiVersion: '1.0', context: 'py', method: 'events:configure', data: {} };
const MOTION = { source: { VideoSourceConfigurationToken: '1' }, key: {}, data: { State: '1' } };

function motionNotification(): Record<string, unknown> {
  return {
    apiVersion: '1.0',
    method: 'events:notify',
    params: {
      notification: { topic: 'tns1:VideoSource/MotionAlarm', timestamp: expect.any(Number) as number, message: MOTION },
    },
  };
}

describeWithPython(`python3-websockets client (${versions ?? 'not installed'})`, () => {
  const start = deviceStarter();

  /** Runs the script and publishes a motion alarm once it has printed the configure answer. */
  function streamWithMotion(device: DeviceHandle, args: string[]): Promise<ScriptRun> {
    return runScript([device.url, 'root', 'pass', ...args], (line) => {
      if (line.method === 'events:configure') {
        device.publish('tns1:VideoSource/MotionAlarm', {
          source: { VideoSourceConfigurationToken: '1' },
          data: { State: '1' },
        });
      }
    });
  }

  it('gets a token with digest (MD5), configures and receives a published notification', async () => {
    const device = await start();
    const run = await streamWithMotion(device, ['tns1:VideoSource/MotionAlarm', '--count', '1']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([CONFIGURE_ANSWER, motionNotification()]);
  });

  it('receives the matching stateful initial states right after the configure, then the published event', async () => {
    const device = await start();
    const run = await streamWithMotion(device, [
      'tns1:Device/tnsvendor:IO/Port',
      'tns1:VideoSource/MotionAlarm',
      '--count',
      '3',
    ]);
    expect(run.code).toBe(0);
    const port = (n: string) => ({
      apiVersion: '1.0',
      method: 'events:notify',
      params: {
        notification: {
          topic: 'tns1:Device/tnsvendor:IO/Port',
          timestamp: expect.any(Number) as number,
          message: { source: { port: n }, key: {}, data: { state: '0' } },
        },
      },
    });
    expect(run.lines).toEqual([CONFIGURE_ANSWER, port('1'), port('2'), motionNotification()]);
  });

  it('works with the real-device prefixes', async () => {
    const device = await start({ cgiPrefix: '/axis-cgi', wsPrefix: '/vapix' });
    const run = await streamWithMotion(device, [
      'tns1:VideoSource/MotionAlarm',
      '--cgi-prefix',
      '/axis-cgi',
      '--ws-prefix',
      '/vapix',
    ]);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([CONFIGURE_ANSWER, motionNotification()]);
  });

  it('gets a token from a device offering only SHA-256 digest', async () => {
    const device = await start({ digestAlgorithms: ['SHA-256'], auth: 'digest' });
    const run = await streamWithMotion(device, ['tns1:VideoSource/MotionAlarm']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([CONFIGURE_ANSWER, motionNotification()]);
  });

  it('a token is single use: the second handshake with it gets 401', async () => {
    const device = await start();
    const run = await runScript([device.url, 'root', 'pass', '--reuse-token']);
    expect(run.code).toBe(0);
    expect(run.lines).toEqual([
      { handshake: 1, status: 101 },
      { handshake: 2, status: 401 },
    ]);
  });

  it('a wrong password fails with exit code 1 and no stream', async () => {
    const device = await start();
    const run = await runScript([device.url, 'root', 'wrong', 'tns1:VideoSource/MotionAlarm']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('HTTP 401');
    expect(run.lines).toEqual([]);
    expect(device.sessions()).toEqual([]);
  });

  it('exits with code 2 when no notification arrives before its timeout', async () => {
    const device = await start();
    const run = await runScript([device.url, 'root', 'pass', 'tns1:VideoSource/MotionAlarm', '--timeout', '0.5']);
    expect(run.code).toBe(2);
    expect(run.lines).toEqual([CONFIGURE_ANSWER]);
    expect(run.stderr).toContain('timed out');
  });
});
