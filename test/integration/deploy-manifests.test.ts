/**
 * The Kubernetes manifests and the Dockerfile pass arguments to `bwc-emu`: read them and
 * start the CLI with exactly those arguments (values that only matter inside a cluster, the
 * port, a listen address and the size of a pod's fleet, made local), so they cannot drift from
 * the command line; run their probes against it; and check what the manifests say in
 * arithmetic: memory from the measured figures of docs/scale-out.md, disjoint serial and
 * address ranges per pod, the port's right.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { main } from '../../src/cli/main';
import { capture } from '../helpers/cli-capture';

const ROOT = join(__dirname, '../..');

/**
 * The figures the manifests are sized from (docs/scale-out.md, measured 2026-11-28, RSS after
 * GC): the process base, each device playing the default scenario, each idle event stream
 * session; one session per device; limit = working set x HEADROOM.
 */
const SIZING = {
  baseMiB: 75,
  deviceKiB: { address: 12, ports: 14 },
  sessionKiB: 10,
  sessionsPerDevice: 1,
  headroom: 1.25,
};

/** How long a probe may take before it counts as failed (the manifests' timeoutSeconds). */
const PROBE_TIMEOUT_MS = 5_000;

/** How many devices the local run of a manifest's arguments starts instead of a pod's fleet. */
const LOCAL_DEVICES = 20;

interface Probe {
  exec?: { command: string[] };
}

interface Container {
  name: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
  resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
}

interface StatefulSet {
  metadata: { name: string };
  spec: {
    serviceName: string;
    replicas: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: { containers: Container[]; securityContext?: { sysctls?: { name: string; value: string }[] } };
    };
  };
}

interface Service {
  metadata: { name: string };
  spec: { clusterIP?: string; selector: Record<string, string> };
}

/** The one document of `kind` in `file` (under deploy/kubernetes). */
function documentOf<T>(file: string, kind: string): T {
  const docs = parseAllDocuments(readFileSync(join(ROOT, 'deploy/kubernetes', file), 'utf8'));
  const found = docs.map((d) => d.toJS() as { kind: string }).filter((d) => d.kind === kind);
  if (found.length !== 1) throw new Error(`deploy/kubernetes/${file}: ${found.length} ${kind} documents, not 1`);
  return found[0] as unknown as T;
}

/** `$((A * B + 1))` with the pod's variables: sums of products of numbers, as sh evaluates them. */
function arithmetic(expr: string, env: Record<string, string>): number {
  const values = expr.replace(/\$?([A-Z_]+)/g, (_v, name: string) => env[name] ?? 'NaN');
  if (!/^[\d\s*+]+$/.test(values)) throw new Error(`cannot evaluate $((${expr}))`);
  return values
    .split('+')
    .reduce((sum, term) => sum + term.split('*').reduce((product, factor) => product * Number(factor.trim()), 1), 0);
}

/**
 * The words of `sh -c SCRIPT` after `exec node bin/bwc-emu`, with the pod's variables and
 * arithmetic expanded; what comes before must be the raise of the file descriptor limit.
 */
function bwcEmuArgs(script: string, env: Record<string, string>): string[] {
  const [before, after] = script.split(/\bexec node bin\/bwc-emu\b/);
  expect(after).toBeDefined();
  expect(before.trim()).toBe('ulimit -n "$(ulimit -Hn)" &&');
  const expanded = after
    .replace(/\$\(\(([^)]*)\)\)/g, (_all, expr: string) => String(arithmetic(expr, env)))
    .replace(/\$([A-Z_]+)/g, (_all, name: string) => env[name] ?? '');
  return [...expanded.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

/** The value after `flag` in `args`. */
function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args[i + 1];
}

/** `--host X` -> 127.0.0.1, `--port N` -> 0 and `--devices N` -> LOCAL_DEVICES: the rest as the manifest has it. */
function local(args: string[]): string[] {
  const made: Record<string, string> = { '--host': '127.0.0.1', '--port': '0', '--devices': String(LOCAL_DEVICES) };
  return args.map((word, i) => made[args[i - 1]] ?? word);
}

/** `1152Mi` or `1.5Gi` in MiB. */
function mebibytes(quantity: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)(Mi|Gi)$/.exec(quantity ?? '');
  if (!match) throw new Error(`memory quantity "${String(quantity)}" is not in Mi or Gi`);
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1);
}

/** An IPv4 address as a number. */
function ipv4(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/**
 * Runs a probe's `node -e` script with the pod's variables, its fetch sent to `port` instead
 * of the manifest's; resolves with its exit code and the URL it asked.
 */
function runProbe(probe: Probe | undefined, env: Record<string, string>, port: number): Promise<[number, string]> {
  const [node, e, script] = probe?.exec?.command ?? [];
  expect([node, e]).toEqual(['node', '-e']);
  return new Promise((resolve) => {
    let asked = '';
    const redirected = (url: string): Promise<Response> => {
      asked = url;
      const target = new URL(url);
      target.port = String(port);
      return fetch(target);
    };
    const exit = (code: number): void => resolve([code, asked]);
    // As the probe's timeoutSeconds: a probe that hangs fails.
    setTimeout(() => exit(124), PROBE_TIMEOUT_MS).unref();
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the manifest's own probe script, run as node -e would
    const probeScript = new Function('fetch', 'process', script) as (
      fetchAt: typeof redirected,
      proc: { env: Record<string, string>; exit: typeof exit },
    ) => void;
    probeScript(redirected, { env, exit });
  });
}

const MANIFESTS = [
  { mode: 'address' as const, statefulSet: 'statefulset.yaml', service: 'service.yaml' },
  { mode: 'ports' as const, statefulSet: 'ports-mode/statefulset.yaml', service: 'ports-mode/service.yaml' },
];

describe.each(MANIFESTS)('deploy/kubernetes: $mode mode ($statefulSet)', ({ mode, statefulSet, service }) => {
  const set = documentOf<StatefulSet>(statefulSet, 'StatefulSet');
  const pod = set.spec.template.spec;
  const container = pod.containers.find((c) => c.name === 'bwc-emu') as Container;
  const env = Object.fromEntries(
    (container.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value as string]),
  );
  const perPod = Number(env.DEVICES_PER_POD);
  const argsOf = (podIndex: number): string[] =>
    bwcEmuArgs(container.args?.[0] ?? '', { ...env, POD_INDEX: String(podIndex) });

  it('takes the pod index from its label and is governed by a headless Service selecting its pods', () => {
    expect(container.command).toEqual(['sh', '-c']);
    expect(container.env?.find((e) => e.name === 'POD_INDEX')?.valueFrom?.fieldRef?.fieldPath).toBe(
      "metadata.labels['apps.kubernetes.io/pod-index']",
    );
    const governing = documentOf<Service>(service, 'Service');
    expect(governing.metadata.name).toBe(set.spec.serviceName);
    expect(governing.spec.clusterIP).toBe('None');
    expect(set.spec.template.metadata.labels).toMatchObject(governing.spec.selector);
  });

  it("starts the pod's fleet with its serial range (and address range) from its ordinal, and its probes answer", async () => {
    const args = argsOf(2);
    const run = capture();
    const exit = main(local(args), run.io);
    await run.started;
    const ready = JSON.parse(/^bwc-emu ready (.*)$/m.exec(run.out())?.[1] ?? 'null') as {
      devices: { serial: string; urls: { base: string } }[];
    };
    const first = new URL(ready.devices[0].urls.base);
    const probes = [container.startupProbe, container.readinessProbe, container.livenessProbe];
    const answers = await Promise.all(
      probes.map((p) => runProbe(p, { ...env, POD_INDEX: '2' }, Number(first.port))),
    ).finally(() => run.stop('SIGTERM'));
    expect(await exit).toBe(0);
    expect(run.err()).not.toMatch(/unknown option|must be/);

    expect(ready.devices).toHaveLength(LOCAL_DEVICES);
    ready.devices.forEach((d, i) => expect(d.serial).toBe(`ACCC8E${String(2 * perPod + i).padStart(6, '0')}`));
    if (mode === 'address') {
      expect(ready.devices.map((d) => new URL(d.urls.base).hostname)).toEqual(
        ready.devices.map((_d, i) => `127.3.0.${1 + i}`),
      );
      expect(new Set(ready.devices.map((d) => new URL(d.urls.base).port))).toEqual(new Set([first.port]));
    }
    // Each probe asks the first device's address at the manifest's port, and gets 200 there.
    const port = flag(args, '--port');
    for (const [code, asked] of answers) {
      expect(asked).toBe(`http://${mode === 'address' ? '127.3.0.1' : '127.0.0.1'}:${port}/_emu/health`);
      expect(code).toBe(0);
    }
  });

  it('requests and limits memory from the measured figures (base + devices + sessions, x headroom)', () => {
    const workingSet =
      SIZING.baseMiB + (perPod * (SIZING.deviceKiB[mode] + SIZING.sessionsPerDevice * SIZING.sessionKiB)) / 1024;
    const { requests, limits } = container.resources ?? {};
    expect(mebibytes(requests?.memory)).toBeGreaterThanOrEqual(workingSet);
    expect(mebibytes(limits?.memory)).toBeGreaterThanOrEqual(workingSet * SIZING.headroom);
    // Not far beyond either: a pod asks for what the figures say, give or take a rounding.
    expect(mebibytes(limits?.memory)).toBeLessThan(workingSet * SIZING.headroom + 128);
    expect(requests?.cpu).toBeDefined();
  });

  it('gives every pod its own serial range', () => {
    const bases = [0, 1, 2, 19].map((k) => Number(flag(argsOf(k), '--device-index-base')));
    expect(bases).toEqual([0, perPod, 2 * perPod, 19 * perPod]);
  });

  if (mode === 'address') {
    it('gives every pod its own address range, inside its /16 of 127.0.0.0/8, on a port it may bind', () => {
      expect(perPod).toBeLessThanOrEqual(65_535);
      const ranges = Array.from({ length: 254 }, (_v, k) => {
        const first = ipv4(flag(argsOf(k), '--address-range') ?? '');
        return { k, first, last: first + perPod - 1 };
      });
      for (const { k, first, last } of ranges) {
        // Its own /16, never 127.0.0.0/16 (127.0.0.1 and the addresses other software uses).
        expect(Math.floor(first / 65_536)).toBe(ipv4('127.0.0.0') / 65_536 + k + 1);
        expect(Math.floor(last / 65_536)).toBe(Math.floor(first / 65_536));
        expect(last).toBeLessThan(ipv4('127.255.255.255'));
      }
      ranges.slice(1).forEach((r, i) => expect(r.first).toBeGreaterThan(ranges[i].last));
      const port = Number(flag(argsOf(0), '--port'));
      if (port < 1024) {
        const sysctl = pod.securityContext?.sysctls?.find((s) => s.name === 'net.ipv4.ip_unprivileged_port_start');
        expect(Number(sysctl?.value)).toBeLessThanOrEqual(port);
      }
    });

    it('has a client container beside the devices, told which pod it is in', () => {
      const client = pod.containers.find((c) => c.name === 'client');
      expect(client?.env?.find((e) => e.name === 'POD_INDEX')?.valueFrom?.fieldRef?.fieldPath).toBe(
        "metadata.labels['apps.kubernetes.io/pod-index']",
      );
      expect(client?.env?.find((e) => e.name === 'DEVICES_PER_POD')?.value).toBe(env.DEVICES_PER_POD);
    });
  }
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
