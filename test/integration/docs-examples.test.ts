/**
 * The docs' examples hold up against what they describe: the control API page's shell
 * variables are the ones it defines and its fleet serials (and the OpenAPI document's example
 * serial) are a default fleet's, the container examples map one port per device, and the
 * README's list of what .ci/run installs is .ci/run's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src';

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The fenced code blocks of a Markdown page with the given language. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

/** Shell lines with their backslash continuations joined. */
function commands(script: string): string[] {
  return script.replace(/\\\n\s*/g, ' ').split('\n');
}

describe('docs/control-api.md', () => {
  const page = read('docs/control-api.md');

  it('uses only the shell variables it defines', () => {
    const defined = new Set([
      ...[...page.matchAll(/`\$([A-Z_]+)` is /g)].map((m) => m[1]),
      ...blocks(page, 'sh').flatMap((b) => [...b.matchAll(/^\s*([a-zA-Z_]+)=/gm)].map((m) => m[1])),
    ]);
    const used = new Set(blocks(page, 'sh').flatMap((b) => [...b.matchAll(/\$([a-zA-Z_]+)/g)].map((m) => m[1])));
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
    expect(defined.has('EMU')).toBe(true);
  });

  it("names serials a default fleet has, as does the OpenAPI document's example", async () => {
    const fleet = await startEmulator({ devices: 3, device: { port: 0 } });
    try {
      const serials = fleet.access().map((d) => d.serial);
      const named = [
        ...page.matchAll(/\b([0-9A-F]{12})\b/g),
        ...read('schema/control-api.openapi.json').matchAll(/"example": "([0-9A-F]{12})"/g),
      ].map((m) => m[1]);
      expect(named.length).toBeGreaterThan(0);
      expect(named.filter((serial) => !serials.includes(serial))).toEqual([]);
      expect(page).toContain(`--devices 3\` the serials are ${serials[0]}`);
    } finally {
      await fleet.close();
    }
  });
});

describe('docs/scale-out.md', () => {
  it('maps one port per device in every docker run', () => {
    const runs = blocks(read('docs/scale-out.md'), 'sh')
      .flatMap(commands)
      .filter((line) => line.includes('docker run'));
    expect(runs.length).toBeGreaterThan(1);
    for (const run of runs) {
      const devices = Number(/(?:--devices |BWC_EMU_DEVICES=)(\d+)/.exec(run)?.[1] ?? 1);
      const [, from, to] = /-p (\d+)(?:-(\d+))?:/.exec(run) ?? [];
      expect([run, Number(to ?? from) - Number(from) + 1]).toEqual([run, devices]);
    }
  });
});

describe('README.md', () => {
  it('lists every package .ci/run installs, and only those', () => {
    const line = /apt-get install ([^\n]*?)>/.exec(read('.ci/run'))?.[1] ?? '';
    const installed = line.split(/\s+/).filter((word) => word && !word.startsWith('-'));
    const paragraph = /`\.ci\/run` is what CI runs[\s\S]*?\(([^)]*)\)/.exec(read('README.md'))?.[1] ?? '';
    const listed = paragraph.split(/,\s*/).map((word) => word.trim());
    expect(installed.length).toBeGreaterThan(5);
    expect([...listed].sort()).toEqual([...installed].sort());
  });
});
