/**
 * Runs interop client scripts with Debian's interpreter /usr/bin/python3 (where
 * Debian's python3-* packages install), not whatever python3 is first on PATH.
 */
import { execFile, execFileSync } from 'node:child_process';
import { toolMissing } from './required-tools';

/** Debian's interpreter. */
export const PYTHON = '/usr/bin/python3';

/** What a script run left: exit code (null when killed), its JSON lines, its stderr. */
export interface ScriptRun {
  code: number | null;
  lines: Record<string, unknown>[];
  stderr: string;
}

/**
 * The versions of `modules` as "name version ...", or undefined when the interpreter
 * or a module is missing. Says so once in that case (and throws where the tools are
 * required: {@link toolMissing}).
 */
export function pythonModules(modules: string[], suite: string): string | undefined {
  // Not every module has __version__ (junitparser has none): those say "installed".
  const version = (m: string): string => `getattr(${m}, "__version__", "installed")`;
  const code = `import ${modules.join(', ')}; print(${modules.map((m) => `"${m}", ${version(m)}`).join(', ')})`;
  try {
    return execFileSync(PYTHON, ['-c', code], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    toolMissing(
      `${suite} interop tests skipped: ${PYTHON} cannot import ${modules.join(' and ')} (apt-get install ${modules.map((m) => `python3-${m}`).join(' ')})`,
    );
    return undefined;
  }
}

/**
 * Runs `script`, calling `onLine` with each JSON line as it is printed, and resolves
 * when the script has exited (killed after 10 s at the latest).
 */
export function runPythonScript(
  script: string,
  args: string[],
  onLine: (line: Record<string, unknown>) => void = () => {},
): Promise<ScriptRun> {
  return new Promise((resolve) => {
    const lines: Record<string, unknown>[] = [];
    let pending = '';
    const child = execFile(
      PYTHON,
      [script, ...args],
      { timeout: 10_000, encoding: 'utf8' },
      (error, _stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, lines, stderr });
      },
    );
    child.stdout?.on('data', (chunk: string) => {
      pending += chunk;
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        const text = pending.slice(0, end);
        pending = pending.slice(end + 1);
        if (text.trim() === '') continue;
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        onLine(line);
      }
    });
  });
}
