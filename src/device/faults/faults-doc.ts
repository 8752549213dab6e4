/**
 * docs/faults.md, made from the fault catalogue so the page cannot drift from the code: a
 * test compares the committed page with this text (`npm run docs` rewrites it).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { markdownTable } from '../../base/markdown-table';
import { FAULT_CATALOGUE, FAULT_NAMES } from '../../protocol/fault-catalogue';

/** Where the page lives, from the package root. */
export const FAULTS_DOC_FILE = join(__dirname, '..', '..', '..', 'docs', 'faults.md');

interface JsonProperty {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
}

/** The whole page. */
export function faultsDoc(): string {
  const out: string[] = [
    '# Device fault switches',
    '',
    '<!-- Generated from src/protocol/fault-catalogue.ts by `npm run docs`; do not edit by hand. -->',
    '',
    'Each switch reproduces a device behaviour seen in the field that breaks clients. Turn one on from',
    'a test (`device.fault(name, params)`, `emulator.fault(name, params, { device })`), from the control',
    'API (`POST /_emu/faults` with `{"name": ..., ...params}`; `GET /_emu/faults`; `DELETE /_emu/faults?name=`)',
    'or from a scenario step (`- { at: 10s, fault: { name: stall, for: 30s } }`). A *state* switch stays on',
    'until cleared or for `forMs` (`for:` in a scenario); an *action* happens once, and the call answers',
    'when it is over. `reset()` switches every fault off. During a `reboot` the device port, its control',
    'API included, refuses connections (the call that asked for the reboot is answered when the device is',
    "back); drive a fleet through another device's `/_emu/devices/{serial}/...` meanwhile.",
    '',
    ...markdownTable(
      ['switch', 'kind', 'what the device does', 'the client bug it exposes', 'observed behaviour it comes from'],
      FAULT_NAMES.map((name) => {
        const e = FAULT_CATALOGUE[name];
        return [`\`${name}\``, e.kind, e.does, e.exposes, e.source];
      }),
    ),
  ];
  out.push('', '## Parameters', '');
  for (const name of FAULT_NAMES) {
    const schema = z.toJSONSchema(FAULT_CATALOGUE[name].params, { io: 'input' }) as {
      properties?: Record<string, JsonProperty>;
    };
    const properties = Object.entries(schema.properties ?? {});
    out.push(`### \`${name}\``, '');
    if (properties.length === 0) {
      out.push('No parameters.', '');
      continue;
    }
    out.push(
      ...markdownTable(
        ['parameter', 'type', 'default', 'meaning'],
        properties.map(([param, p]) => [
          `\`${param}\``,
          typeOf(p),
          p.default === undefined ? '-' : `\`${JSON.stringify(p.default)}\``,
          p.description ?? '',
        ]),
      ),
    );
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function typeOf(p: JsonProperty): string {
  if (p.enum) return p.enum.map((v) => `\`${JSON.stringify(v)}\``).join(' or ');
  if (p.const !== undefined) return `\`${JSON.stringify(p.const)}\``;
  const range = p.minimum !== undefined && p.maximum !== undefined ? ` ${p.minimum}..${p.maximum}` : '';
  return `${p.type ?? 'object'}${range}`;
}
