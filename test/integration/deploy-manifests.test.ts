/**
 * The Kubernetes manifests and the Dockerfile pass arguments to `bwc-emu`: read them and
 * start the CLI with exactly those arguments (values that only matter inside a cluster,
 * the address and port, made local), so they cannot drift from the command line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';

const ROOT = join(__dirname, '../..');

interface Container {
  name: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  readinessProbe?: { exec?: { command: string[] } };
  livenessProbe?: { exec?: { command: string[] } };
}

function statefulSet(): { spec: { replicas: number; template: { spec: { containers: Container[] } } } } {
  const docs = parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes/statefulset.yaml'), 'utf8'));
  const found = docs.map((d) => d.toJS() as { kind: string }).find((d) => d.kind === 'StatefulSet');
  if (!found) throw new Error('no StatefulSet in deploy/kubernetes/statefulset.yaml');
  return found as unknown as ReturnType<typeof statefulSet>;
}

/** The words of `sh -c SCRIPT` after `exec node bin/bwc-emu`, with the pod's variables and arithmetic expanded. */
function bwcEmuArgs(script: string, env: Record<string, string>): string[] {
  const expanded = script
    .replace(/\$\(\(([^)]*)\)\)/g, (_all, expr: string) => {
      const values = expr.replace(/\$?([A-Z_]+)/g, (_v, name: string) => env[name] ?? 'NaN');
      if (!/^[\d\s*+-]+$/.test(values)) throw new Error(`cannot evaluate $((${expr}))`);
      return String(values.split('*').reduce((product, factor) => product * Number(factor.trim()), 1));
    })
    .replace(/\$([A-Z_]+)/g, (_all, name: string) => env[name] ?? '');
  const words = [...expanded.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
  const start = words.indexOf('bin/bwc-emu');
  expect(words.slice(0, start + 1)).toEqual(['exec', 'node', 'bin/bwc-emu']);
  return words.slice(start + 1);
}

/** `--host X` -> 127.0.0.1 and `--port N` -> 0: the rest is passed as the manifest has it. */
function local(args: string[]): string[] {
  return args.map((word, i) => (args[i - 1] === '--host' ? '127.0.0.1' : args[i - 1] === '--port' ? '0' : word));
}

describe('deploy/kubernetes', () => {
  const [container] = statefulSet().spec.template.spec.containers;
  const env = Object.fromEntries(
    (container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value as string]),
  );

  it('gives each pod a fleet whose serial range comes from its ordinal', async () => {
    expect(container.command).toEqual(['sh', '-c']);
    const args = bwcEmuArgs(container.args?.[0] ?? '', { ...env, POD_INDEX: '2' });
    expect(args).toContain('--device-index-base');
    const run = capture();
    const exit = main(local(args), run.io);
    await run.started;
    const ready = JSON.parse(/^bwc-emu ready (.*)$/m.exec(run.out())?.[1] ?? 'null') as {
      devices: { serial: string }[];
    };
    run.stop('SIGTERM');
    expect(await exit).toBe(0);
    const perPod = Number(env.DEVICES_PER_POD);
    expect(ready.devices).toHaveLength(perPod);
    expect(ready.devices[0].serial).toBe(`ACCC8E${String(2 * perPod).padStart(6, '0')}`);
    expect(run.err()).not.toMatch(/unknown option|must be/);
  });

  it('probes the control API from inside the container (it answers loopback only)', () => {
    for (const probe of [container.readinessProbe, container.livenessProbe])
      expect(probe?.exec?.command.join(' ')).toContain('http://127.0.0.1:8080/_emu/health');
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

  it('runs bin/bwc-emu with arguments and variables the CLI accepts, as a non-root user, with a health check', async () => {
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    expect(/^ENTRYPOINT \["node", "bin\/bwc-emu"\]$/m.test(dockerfile)).toBe(true);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/_emu\/health/m);
    // The image's BWC_EMU_ variables (its defaults since issue 31), the address and port made local.
    const localEnv: Record<string, string> = { BWC_EMU_HOST: '127.0.0.1', BWC_EMU_PORT: '0' };
    const env = Object.fromEntries(
      [...dockerfile.matchAll(/^ENV (BWC_EMU_[A-Z_]+)=(\S+)$/gm)].map(([, name, value]) => [
        name,
        localEnv[name] ?? value,
      ]),
    );
    expect(Object.keys(env)).toEqual(expect.arrayContaining(['BWC_EMU_HOST', 'BWC_EMU_PORT']));
    const run = capture();
    run.io.env = env;
    const exit = main([...local(cmd), '--log-level', 'silent'], run.io);
    await run.started;
    run.stop('SIGTERM');
    expect(await exit).toBe(0);
  });
});
