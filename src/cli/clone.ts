/**
 * `bwc-emu clone`: captures what a device answers to discovery, identity, flag and parameter
 * requests into a persona file, so `bwc-emu --persona FILE` answers as that model. A command
 * of its own beside `record`: it asks a handful of HTTP questions once and ends, where `record`
 * listens to an event stream until stopped.
 */
import yargs from 'yargs';
import { writeFileAtomic } from '../base/atomic-file';
import { personaYaml } from '../device/persona-file-yaml';
import { cloneDevice } from '../index';
import { type CliIo, parseCommandLine } from './parse';

/** Runs `bwc-emu clone ...` (argv after the word `clone`); resolves to the exit code. */
export async function cloneCommand(argv: string[], io: CliIo): Promise<number> {
  const parsed = await parseCommandLine(cloneParser(argv), argv, 'bwc-emu clone', io);
  if (!parsed.ok) return parsed.code;
  const args = parsed.args;
  try {
    const persona = await cloneDevice({
      url: args.url,
      user: args.user,
      password: args.password,
      cgiPrefix: args['cgi-prefix'],
      wsPrefix: args['ws-prefix'],
      namespace: args.namespace,
      insecure: args.insecure,
    });
    await writeFileAtomic(args.out, personaYaml(persona));
    const left = persona.leftOut?.length ? `; ${persona.leftOut.length} secret parameters left out` : '';
    io.out(
      `${persona.identity.ProdFullName} (${persona.identity.SerialNumber}) written to ${args.out}: ` +
        `${persona.apiList.length} APIs, ${persona.flags.length} flags, ${Object.keys(persona.parameters).length} parameters${left}; ` +
        `serve it with: bwc-emu --persona ${args.out}\n`,
    );
    return 0;
  } catch (err) {
    io.err(`bwc-emu clone: ${(err as Error).message}\n`);
    return 1;
  }
}

/** The parser of `bwc-emu clone`'s flags (also read for where a misplaced option belongs). */
export function cloneParser(argv: string[]) {
  return yargs(argv)
    .scriptName('bwc-emu clone')
    .usage(
      "$0 --url http://HOST --out persona.yaml [options]\n\nCaptures a device's API list, identity, feature flags and parameters (no secrets) into a persona file for --persona FILE.",
    )
    .option('url', { type: 'string', demandOption: true, describe: 'the device, http:// or https://' })
    .option('user', { type: 'string', default: 'root', describe: 'user name (an admin: feature flags need one)' })
    .option('password', { type: 'string', default: 'pass', describe: 'password (never written to the file)' })
    .option('cgi-prefix', {
      type: 'string',
      describe: 'CGI prefix (default: /svc-cgi or /axis-cgi, whichever the device answers under)',
    })
    .option('ws-prefix', {
      type: 'string',
      describe: "event stream prefix (default: the prefix's family's, /svc or /vapix)",
    })
    .option('namespace', {
      type: 'string',
      describe: "vendor topic word (default: the prefix's family's, tnsvendor or tnsaxis)",
    })
    .option('insecure', { type: 'boolean', default: false, describe: 'accept a self-signed https certificate' })
    .option('out', { alias: 'o', type: 'string', demandOption: true, describe: 'the persona file to write (YAML)' })
    .strict()
    .help();
}
