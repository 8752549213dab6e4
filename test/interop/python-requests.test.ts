/**
 * Interop with a short script using Debian's python3-requests (and python3-websockets
 * for the stream) that does what real clients do: discovery -> basic device info ->
 * param.cgi -> token -> stream (test/interop/python-requests-client.py), against a
 * device started with the real-device prefixes /axis-cgi and /vapix. Runs Debian's
 * interpreter /usr/bin/python3, not whatever python3 is first on PATH. Skipped, with
 * a message, when that interpreter or its requests/websockets modules are missing.
 */
import { join } from 'node:path';
import { realPrefixDevice } from './real-prefix-device';
import { pythonModules, runPythonScript, type ScriptRun } from '../helpers/python-script';
import { DOC_LINK_BASE } from '../../src/device/apidiscovery-cgi';
import { EVENT_STREAM_API } from '../../src/events/configure';

const SCRIPT = join(__dirname, 'python-requests-client.py');
const versions = pythonModules(['requests', 'websockets'], 'python-requests');
const describeWithPython = versions ? describe : describe.skip;

const runScript = (args: string[], onLine?: (line: Record<string, unknown>) => void): Promise<ScriptRun> =>
  runPythonScript(SCRIPT, args, onLine);

describeWithPython(`python3-requests client, real-device prefixes (${versions ?? 'not installed'})`, () => {
  const start = realPrefixDevice();

  it('discovery -> basic device info -> param.cgi -> token -> stream, with a published notification', async () => {
    const started = await start();
    const run = await runScript([started.url, 'root', 'pass', 'tns1:VideoSource/MotionAlarm'], (line) => {
      if (line.configured === true) {
        started.publish('tns1:VideoSource/MotionAlarm', {
          source: { VideoSourceConfigurationToken: '1' },
          data: { State: '1' },
        });
      }
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(2);
    expect(run.lines[0]).toEqual({ configured: true });
    const summary = run.lines[1].summary as Record<string, unknown>;
    expect(summary).toEqual({
      apis: expect.arrayContaining([
        'api-discovery',
        'basic-device-info',
        'event-streaming-over-websocket',
        'param-cgi',
      ]) as string[],
      discovery: {
        id: 'event-streaming-over-websocket',
        version: EVENT_STREAM_API.versions[EVENT_STREAM_API.versions.length - 1],
        name: EVENT_STREAM_API.name,
        docLink: `${DOC_LINK_BASE}${EVENT_STREAM_API.id}`,
      },
      serial: 'ACCC8E00ABCD',
      model: 'W110',
      firmware: '11.11.73',
      brand: expect.objectContaining({ 'root.Brand.Brand': 'AXIS', 'root.Brand.ProdNbr': 'W110' }) as object,
      configure: { apiVersion: '1.0', context: 'py', method: 'events:configure', data: {} },
      notification: {
        topic: 'tns1:VideoSource/MotionAlarm',
        timestamp: expect.any(Number) as number,
        message: { source: { VideoSourceConfigurationToken: '1' }, key: {}, data: { State: '1' } },
      },
      websocketClient: expect.stringMatching(/^websockets /) as string,
    });
  });

  it('gets the stateful I/O port state as its first notification, with SHA-256 digest only', async () => {
    const started = await start({ digestAlgorithms: ['SHA-256'], auth: 'digest' });
    const run = await runScript([started.url, 'root', 'pass', 'tns1:Device/tnsvendor:IO/Port']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = run.lines[1].summary as Record<string, unknown>;
    expect(summary).toMatchObject({
      serial: 'ACCC8E00ABCD',
      configure: { context: 'py', method: 'events:configure', data: {} },
      notification: {
        topic: 'tns1:Device/tnsvendor:IO/Port',
        message: { source: { port: '1' }, key: {}, data: { state: '0' } },
      },
    });
  });

  it('with a wrong password stops at basic device info (discovery is anonymous)', async () => {
    const started = await start();
    const run = await runScript([started.url, 'root', 'wrong', 'tns1:VideoSource/MotionAlarm']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/401 Client Error.*basicdeviceinfo\.cgi/);
    expect(run.lines).toEqual([]);
  });
});
