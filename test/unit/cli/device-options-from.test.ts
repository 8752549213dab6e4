/**
 * `--port` and `--address-range` as emulator options (issue 33): an unset --port is 8080 in
 * ports mode and left to the emulator (80, 443 with TLS) in address mode, while a port given
 * by the flag, a variable or the config file is kept in both.
 */
import yargs from 'yargs';
import { type DeviceArgs, deviceFlags } from '../../../src/cli/device-flags';
import { optionsFromFlags } from '../../../src/cli/device-options-from';
import { withSettings } from '../../../src/cli/settings';
import { capture } from '../../helpers/cli-capture';

/** The emulator options `argv` (with `env`) asks for. */
async function optionsOf(argv: string[], env: Record<string, string> = {}) {
  const parser = yargs(argv).options(deviceFlags()).strict().exitProcess(false);
  withSettings(parser, argv, env);
  const args = (await parser.parseAsync()) as unknown as DeviceArgs;
  return optionsFromFlags(args, capture().io, () => undefined);
}

describe('--port and --address-range as emulator options', () => {
  it('an unset --port is 8080 without --address-range', async () => {
    const options = await optionsOf([]);
    expect(options.device.port).toBe(8080);
    expect(options.fleet.addressRange).toBeUndefined();
  });

  it('an unset --port is left to the emulator with --address-range (80, or 443 with TLS)', async () => {
    for (const tls of [[], ['--tls']]) {
      const options = await optionsOf(['--address-range', '127.1.0.1', '--devices', '5', ...tls]);
      expect(options.device).not.toHaveProperty('port');
      expect(options.fleet).toMatchObject({ addressRange: '127.1.0.1', devices: 5 });
    }
  });

  it('a --port given by the flag, a variable or the config file is kept in address mode', async () => {
    expect((await optionsOf(['--address-range', '127.1.0.1', '--port', '8080'])).device.port).toBe(8080);
    expect((await optionsOf(['--address-range', '127.1.0.1', '-p', '0'])).device.port).toBe(0);
    expect((await optionsOf(['--address-range', '127.1.0.1'], { BWC_EMU_PORT: '9000' })).device.port).toBe(9000);
    expect((await optionsOf([], { BWC_EMU_ADDRESS_RANGE: '127.1.0.1', BWC_EMU_PORT: '0' })).device.port).toBe(0);
  });

  it('counts the scenarios as devices when --devices is not given', async () => {
    await expect(optionsOf(['--address-range', '255.255.255.255', '-s', 'default', '-s', 'motion'])).rejects.toThrow(
      '--address-range 255.255.255.255 with 2 devices goes past 255.255.255.255',
    );
    expect((await optionsOf(['--address-range', '255.255.255.255'])).fleet.addressRange).toBe('255.255.255.255');
  });
});
