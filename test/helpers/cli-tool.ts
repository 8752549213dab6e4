/**
 * Runs Debian's command-line clients (swift, rclone) in interop tests: with an
 * environment stripped of proxies and of the tools' own settings (so a developer's
 * OS_*, ST_* or RCLONE_* variables cannot redirect a test), a time limit, and the
 * exit code, stdout and stderr kept whatever the outcome.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { dirname, join, relative } from 'node:path';
import { toolMissing } from './required-tools';

/** What a tool run left. `code` is null when it was killed (timeout). */
export interface ToolRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Variables removed from the environment of every tool run. */
const STRIPPED = /^(https?_proxy|all_proxy|no_proxy|ftp_proxy|OS_.*|ST_.*|RCLONE_.*|SWIFTCLIENT_.*)$/i;

/** `process.env` without proxies or tool settings, plus `extra`. */
export function toolEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!STRIPPED.test(name)) env[name] = value;
  return { ...env, NO_PROXY: '*', no_proxy: '*', ...extra };
}

/** Runs `file args` and resolves with its outcome (never rejects on a non-zero exit). */
export function runTool(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        env: options.env ?? toolEnv(),
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 20_000,
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * The first line of `file --version` (or `args`), or undefined when the tool is
 * missing or cannot run; then says so once, naming the Debian package to install (and throws
 * where the tools are required: {@link toolMissing}).
 */
export function toolVersion(file: string, suite: string, aptPackage: string, args = ['--version']): string | undefined {
  if (!existsSync(file)) {
    toolMissing(`${suite} interop tests skipped: ${file} is not installed (apt-get install ${aptPackage})`);
    return undefined;
  }
  try {
    return execFileSync(file, args, {
      encoding: 'utf8',
      env: toolEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 20_000,
    })
      .split('\n')[0]
      .trim();
  } catch (err) {
    toolMissing(
      `${suite} interop tests skipped: ${file} does not run (${(err as Error).message.split('\n')[0]}; apt-get install ${aptPackage})`,
    );
    return undefined;
  }
}

/** A tree of files to upload: relative path -> content. */
export type FileTree = Record<string, Buffer>;

/** The tree the interop tests upload: two small files (one in a subdirectory) and a ~3 MB random one. */
export function sampleTree(): FileTree {
  return {
    'hello.txt': Buffer.from('hello from bwc-emu\n'),
    'clips/clip-0001.json': Buffer.from(JSON.stringify({ StartTime: 1700000000, StopTime: 1700000030 })),
    'video.bin': randomBytes(3 * 1024 * 1024 + 4321),
  };
}

/** Writes `tree` under `root`. */
export function writeTree(root: string, tree: FileTree): void {
  for (const [path, content] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** Every file under `root` with its content, keyed by the path relative to `root` (with `/`). */
export function readTree(root: string): FileTree {
  const tree: FileTree = {};
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else tree[relative(root, full).split('\\').join('/')] = readFileSync(full);
    }
  };
  walk(root);
  return tree;
}

/** `tree` as path -> "bytes md5", for comparisons whose failure output stays readable. */
export function treeDigests(tree: FileTree): Record<string, string> {
  return Object.fromEntries(
    Object.entries(tree).map(([path, content]) => [
      path,
      `${content.length} ${createHash('md5').update(content).digest('hex')}`,
    ]),
  );
}
