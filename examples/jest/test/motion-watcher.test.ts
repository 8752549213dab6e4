/**
 * The client app tested against bwc-emu started in the same process: the device publishes
 * what the test wants, and the journal shows what the app did on the wire.
 */
import { type EmulatorHandle, startEmulator } from 'bwc-emu';
import { type MotionWatch, watchMotion } from '../src/motion-watcher';

let emulator: EmulatorHandle;
let watch: MotionWatch | undefined;

beforeAll(async () => {
  // A free port, root / pass, a scenario that publishes nothing by itself. basicOverHttp:
  // the app logs in with Basic, which a device refuses on plain HTTP unless asked for.
  emulator = await startEmulator({ scenarios: ['io-port'], device: { port: 0, basicOverHttp: true } });
});
afterEach(async () => {
  watch?.stop();
  await emulator.reset(); // the next test finds a fresh device
});
afterAll(() => emulator.close());

function camera() {
  const [access] = emulator.access();
  return { url: access.urls.base, user: access.user ?? '', password: access.password ?? '' };
}

test('reports motion starting and stopping', async () => {
  const seen: boolean[] = [];
  watch = watchMotion(camera(), (active) => seen.push(active));
  await watch.ready;
  const motion = (state: string) =>
    emulator.publish('tns1:VideoSource/MotionAlarm', {
      source: { VideoSourceConfigurationToken: '1' },
      data: { State: state },
    });
  motion('1');
  motion('0');
  // Published synchronously; the app reads its socket asynchronously: wait until it has both.
  await until(() => seen.length === 2);
  expect(seen).toEqual([true, false]);
  expect(emulator.journal({ kind: 'notification' })).toHaveLength(2);
});

test('subscribes to motion only, with one session token', async () => {
  watch = watchMotion(camera(), () => undefined);
  await watch.ready;
  const configures = emulator.journal({ kind: 'configure' });
  expect(configures).toHaveLength(1);
  expect(configures[0]).toMatchObject({ filters: [{ topicFilter: 'tns1:VideoSource/MotionAlarm' }], error: undefined });
  expect(emulator.journal({ kind: 'http' }).map((e) => e.kind === 'http' && e.status)).toEqual([200]);
});

test('fails clearly when the camera refuses the login', async () => {
  await expect(watchMotion({ ...camera(), password: 'wrong' }, () => undefined).ready).rejects.toThrow(
    'session token refused: 401',
  );
  expect(emulator.journal({ kind: 'auth-refused' })).toEqual([
    expect.objectContaining({ scheme: 'basic', reason: 'wrong password for user "root"' }),
  ]);
});

/** Polls `done` every few milliseconds, for at most a second. */
async function until(done: () => boolean): Promise<void> {
  for (const end = Date.now() + 1000; !done() && Date.now() < end;) await new Promise((r) => setTimeout(r, 5));
  if (!done()) throw new Error('the app never saw it');
}
