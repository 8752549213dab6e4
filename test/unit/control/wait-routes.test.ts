/**
 * The wait routes' long poll: the query reaches the emulator's wait as typed options, with the
 * request's abort signal; a client that goes away aborts the wait and gets no answer attempted
 * and no refusal logged. (Waits on a real emulator: test/integration/control-waits.test.ts.)
 */
import { EmulatorError } from '../../../src/base/errors';
import type { WaitOptions } from '../../../src/control/controlled-emulator';
import { until } from '../../helpers/until';
import { type ControlServer, SERIALS, startControl } from './fake-emulator';

let ctl: ControlServer;
beforeEach(async () => {
  ctl = await startControl();
});
afterEach(() => ctl.close());

/** Makes the fake's entry wait hang until aborted, and hands out the options it was called with. */
function hangingWaits(): WaitOptions[] {
  const seen: WaitOptions[] = [];
  ctl.emulator.waitForEntry = (_kind, options = {}) =>
    new Promise((_resolve, reject) => {
      seen.push(options);
      options.signal?.addEventListener('abort', () => reject(new EmulatorError('CLOSED', 'abandoned')));
    });
  return seen;
}

describe('the wait routes', () => {
  it('pass the query to the wait typed, on the device of the path', async () => {
    const res = await fetch(`${ctl.url}/_emu/devices/${SERIALS[1]}/wait/entry?kind=fault&since=7&timeout=0`);
    expect(res.status).toBe(408);
    const call = ctl.emulator.calls.find((c) => c.method === 'waitForEntry');
    expect(call?.args.slice(0, 1)).toEqual(['fault']);
    expect(call?.args[1]).toMatchObject({ device: SERIALS[1], since: 7, timeout: 0 });
  });

  it('end the wait when the client goes away, without answering or logging a refusal', async () => {
    const seen = hangingWaits();
    const abort = new AbortController();
    const answer = fetch(`${ctl.url}/_emu/wait/entry?kind=ws-open&timeout=60000`, { signal: abort.signal }).then(
      () => 'answered',
      (err: Error) => err.name,
    );
    await until(() => seen.length === 1, 'the wait to start');
    expect(seen[0].signal?.aborted).toBe(false);
    abort.abort();
    expect(await answer).toBe('AbortError');
    await until(() => seen[0].signal?.aborted === true, 'the wait to be aborted');
    await until(() => ctl.logs.some((l) => l.msg === 'control API: client went away'), 'the debug line');
    expect(ctl.logs.filter((l) => l.msg === 'control API: refused' || l.level >= 50)).toEqual([]);
  });
});
