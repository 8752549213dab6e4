/**
 * `bwc-emu upload`: the simulated body worn system uploads a plan's recordings to the
 * content destination of a connection file, shows progress, and ends with a table of
 * what became of each recording (`--check` adds the destination's conformance findings).
 */
import { writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import yargs from 'yargs';
import { stringify } from 'yaml';
import {
  type BodyWornOptions,
  type ConformanceResult,
  DEFAULT_PLAN,
  DEFAULT_RETRY,
  formatFindings,
  loadPlanFile,
  type RetryPolicy,
  runBodyWornSystem,
  runConformance,
  SwiftClientError,
  type UploadReport,
} from '../index';
import { PLAN_SCHEMA_FILE } from '../bws/plan';
import { MAX_ATTEMPTS } from '../bws/retry-policy';
import { createProgressOutput } from './upload-progress';
import { formatReport, writeReportJson } from './upload-report';
import { type CliIo, logFlags, loggerFor, parseCommandLine, readConnectionFile, sayConnectionFile } from './parse';
import { formatDuration, parseDuration } from '../base/duration';
import { numberFlag } from './number-flag';

const COMMAND = 'bwc-emu upload';

/** Runs `bwc-emu upload ...` (argv after the word); resolves to the exit code. */
export async function uploadCommand(argv: string[], io: CliIo): Promise<number> {
  const parser = uploadParser(argv);
  const parsed = await parseCommandLine(parser, argv, COMMAND, io);
  if (!parsed.ok) return parsed.code;
  const args = parsed.args;

  if (args['generate-plan'] !== undefined) return generatePlan(args['generate-plan'], io);
  const retry = retryFlags(args);
  if (!retry.ok) {
    io.err(`${COMMAND}: ${retry.error}\n`);
    return 2;
  }
  const connection = await readConnectionFile(args['connection-file'] as string);
  // What a real body worn system ignores in the file is said, not refused.
  const connectionFile = sayConnectionFile(connection, COMMAND, io);
  const plan = args.plan === undefined ? undefined : await loadPlanFile(args.plan);
  if (!connectionFile || !connection.ok || (plan && !plan.ok)) {
    if (plan && !plan.ok) {
      const count = plan.error.errors.length;
      io.err(`${plan.error.message}\n${COMMAND}: --plan ${args.plan} has ${count} error${count === 1 ? '' : 's'}\n`);
    }
    return 2;
  }

  const progress = createProgressOutput({ write: io.out, isTty: io.isTty });
  const logger = loggerFor(args, io, io.err);
  for (const warning of connection.warnings) logger.warn({ warning }, 'connection file');
  const options: BodyWornOptions = {
    connection: connectionFile,
    plan: plan?.ok ? plan.value : undefined,
    concurrency: args.concurrency,
    retry: retry.value,
    onProgress: (p) => progress.update(p),
    onRecording: (recording) => progress.recordingDone(recording),
    log: logger,
  };
  let report: UploadReport;
  let conformance: ConformanceResult | undefined;
  try {
    if (args.check) {
      conformance = await runConformance(options);
      report = conformance.report;
    } else report = await runBodyWornSystem(options);
  } catch (err) {
    progress.finish();
    if (!(err instanceof SwiftClientError)) throw err;
    io.err(`${COMMAND}: ${err.message.replace(/\s*\n\s*/g, ' ')}\n`);
    return 1;
  }
  progress.finish();
  io.out(`\n${formatReport(report)}`);
  if (conformance)
    io.out(
      `\nConformance of the content destination:\n${formatFindings(conformance.findings, conformance.leftBehind)}\n`,
    );
  if (args.report !== undefined) {
    try {
      await writeReportJson(
        args.report,
        report,
        conformance && {
          passed: conformance.passed,
          findings: conformance.findings,
          leftBehind: conformance.leftBehind,
        },
      );
    } catch (err) {
      io.err(`${COMMAND}: cannot write the report: ${(err as Error).message}\n`);
      return 1;
    }
    io.out(`Report written to ${args.report}\n`);
  }
  // The --check probes are meant to be refused; only the plan's recordings count.
  const transferred = report.recordings.every((r) => r.probe !== undefined || r.status === 'transferred');
  return transferred && (conformance?.passed ?? true) ? 0 : 1;
}

/** The flags that set the retry policy. */
interface RetryArgs {
  'retry-budget': string;
  'retry-base': string;
  'retry-max': string;
  retries?: number;
}

/** The retry flags as a policy, or the first bad one named with what is wrong with it. */
function retryFlags(args: RetryArgs): { ok: true; value: RetryPolicy } | { ok: false; error: string } {
  const budget = parseDuration(args['retry-budget']);
  if (!budget.ok) return { ok: false, error: `--retry-budget: ${budget.error.message}` };
  const base = parseDuration(args['retry-base']);
  if (!base.ok) return { ok: false, error: `--retry-base: ${base.error.message}` };
  const max = parseDuration(args['retry-max']);
  if (!max.ok) return { ok: false, error: `--retry-max: ${max.error.message}` };
  const attempts = args.retries === undefined ? {} : { attempts: args.retries + 1 };
  return { ok: true, value: { budgetMs: budget.value, baseMs: base.value, maxMs: max.value, ...attempts } };
}

/** Writes {@link DEFAULT_PLAN} as YAML with a schema line for editors; never overwrites a file. */
async function generatePlan(file: string, io: CliIo): Promise<number> {
  const schema = relative(dirname(resolve(file)), PLAN_SCHEMA_FILE.path)
    .split(sep)
    .join('/');
  const text = [
    `# yaml-language-server: $schema=${schema}`,
    '#',
    '# bwc-emu upload plan: the users and cameras the body worn system registers and the',
    '# recordings it uploads (made from the built-in plan). Edit it, then run',
    `#   bwc-emu upload --connection-file FILE --plan ${file}`,
    '# Recordings without trigger-on are placed just before the run, 10 minutes apart.',
    '# For volume add e.g. `generate: { users: 10, devices: 10, recordings: 100 }`.',
    stringify(DEFAULT_PLAN),
  ].join('\n');
  try {
    await writeFile(file, text, { flag: 'wx' });
  } catch (err) {
    const exists = (err as NodeJS.ErrnoException).code === 'EEXIST';
    io.err(
      `${COMMAND}: --generate-plan ${file}: ${exists ? 'the file exists; it is not overwritten (remove it or name another)' : (err as Error).message}\n`,
    );
    return exists ? 2 : 1;
  }
  io.out(
    `Wrote the built-in plan to ${file}; edit it and run:\n  bwc-emu upload --connection-file FILE --plan ${file}\n`,
  );
  return 0;
}

/** The parser of `bwc-emu upload`'s flags (also read for where a misplaced option belongs). */
export function uploadParser(argv: string[]) {
  return yargs(argv)
    .scriptName(COMMAND)
    .usage(
      '$0 --connection-file FILE [--plan FILE] [--check] [--report FILE]\n$0 --generate-plan FILE\n\n' +
        'Runs the simulated body worn system once: logs in to the content destination of the\n' +
        'connection file, reads its capabilities, registers the users and cameras of the plan and\n' +
        'uploads its recordings (container, clips, Status: Complete), then lists what became of\n' +
        'each. Exit 0 when every recording was transferred (and, with --check, no check failed:\n' +
        'a WARN (advisory) or a SKIP (not checked: nothing to judge) does not fail the run).',
    )
    .option('connection-file', {
      alias: 'c',
      type: 'string',
      describe: 'the connection file (JSON) of the content destination, as given to a body worn system',
    })
    .option('plan', {
      type: 'string',
      describe: 'YAML plan of users, cameras and recordings (default: the built-in plan, see --generate-plan)',
    })
    .option(
      'concurrency',
      numberFlag('concurrency', 'number', { default: 2, describe: 'recordings uploaded in parallel' }),
    )
    .option('check', {
      type: 'boolean',
      default: false,
      describe:
        'also check the destination against the interface (status codes, ETags, metadata, the 400 rules) and list the findings',
    })
    .option('report', {
      type: 'string',
      describe: 'write the whole report (every recording, failed request and total) as JSON here',
    })
    .option('retry-budget', {
      type: 'string',
      default: formatDuration(DEFAULT_RETRY.budgetMs),
      describe:
        'time one request may take in all, retries included: a busy answer (503, 429), a server error (500) or a lost connection is retried until then (a stock Swift answers 503 for about a minute after an object server restarts)',
    })
    .option(
      'retries',
      numberFlag('retries', 'number', {
        describe: 'also stop after this many retries of one request (default: no cap; --retry-budget decides)',
      }),
    )
    .option('retry-base', {
      type: 'string',
      default: formatDuration(DEFAULT_RETRY.baseMs),
      describe: 'back-off before the first retry, doubled each time up to --retry-max, with full jitter',
    })
    .option('retry-max', {
      type: 'string',
      default: formatDuration(DEFAULT_RETRY.maxMs),
      describe: 'longest back-off between tries; a longer Retry-After from the destination is still obeyed',
    })
    .option('generate-plan', {
      type: 'string',
      describe: 'write the built-in plan as YAML to this file (a starting point to edit) and exit',
    })
    .options(logFlags('silent', 'log verbosity, on stderr (info shows each recording and the capabilities)'))
    .check((args) => {
      if (args.help) return true; // --help needs nothing else
      if (args['generate-plan'] === undefined && args['connection-file'] === undefined)
        throw new Error(
          'Missing required argument: connection-file (or --generate-plan FILE to write a plan to start from)',
        );
      if (!Number.isInteger(args.concurrency) || args.concurrency < 1)
        throw new Error(`--concurrency must be a whole number of 1 or more, not ${args.concurrency}`);
      if (args.retries !== undefined && (!Number.isInteger(args.retries) || args.retries < 0))
        throw new Error(`--retries must be a whole number of 0 or more, not ${args.retries}`);
      if (args.retries !== undefined && args.retries >= MAX_ATTEMPTS)
        throw new Error(`--retries must be at most ${MAX_ATTEMPTS - 1}, not ${args.retries}`);
      return true;
    })
    .strict()
    .help()
    .alias('help', 'h')
    .wrap(Math.min(100, process.stdout.columns || 100));
}
