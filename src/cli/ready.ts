/**
 * Readiness for a harness in any language: once every device listens, one line
 * `bwc-emu ready <JSON>` on stdout (its first line, whatever the log level) and, when
 * asked, the same document in a file written atomically (the file also has a chosen
 * password, which the line leaves out). Log lines written before it are held back until
 * it is out.
 */
import { rm } from 'node:fs/promises';
import { writeFileAtomic } from '../base/atomic-file';
import { DEFAULT_ACCOUNT, type DeviceAccess, type EmulatorHandle } from '../index';

/** What the ready line and the ready file say. */
export interface ReadyDocument {
  /**
   * URLs and credentials of every device, in order (`user`/`password` absent with `--auth none`;
   * on the ready line, `password` only when it is the built-in default).
   */
  devices: DeviceAccess[];
  /** The first device's control API URL, null when it is off. */
  control: string | null;
}

/** The start of the ready line. */
const READY_PREFIX = 'bwc-emu ready ';

/** The ready document of a running emulator. */
export function readyDocument(emulator: EmulatorHandle): ReadyDocument {
  const devices = emulator.access();
  return { devices, control: devices[0]?.control ?? null };
}

/**
 * `bwc-emu ready {...}`: the document on one line. A password other than the built-in
 * default is left out: stdout ends up in logs and CI transcripts, and whoever chose the
 * password knows it (the ready file, which only its reader sees, has it).
 */
export function readyLine(document: ReadyDocument): string {
  const devices = document.devices.map((d) =>
    d.password === undefined || d.password === DEFAULT_ACCOUNT.password ? d : { ...d, password: undefined },
  );
  return `${READY_PREFIX}${JSON.stringify({ ...document, devices })}\n`;
}

/** Writes the ready file (pretty JSON), all or nothing. */
export function writeReadyFile(file: string, document: ReadyDocument): Promise<void> {
  return writeFileAtomic(file, `${JSON.stringify(document, null, 2)}\n`);
}

/** Removes a ready file, of an earlier run or of this one at its end; a missing one is fine. */
export function removeReadyFile(file: string): Promise<void> {
  return rm(file, { force: true });
}

/** Log lines held back until {@link LogGate.open}, then passed straight through. */
export interface LogGate {
  write: (line: string) => void;
  /** Writes what was held back, then lets every line through. */
  open: () => void;
}

/** A gate in front of `write`, closed at first. */
export function logGate(write: (line: string) => void): LogGate {
  let held: string[] | undefined = [];
  return {
    write: (line) => {
      if (held) held.push(line);
      else write(line);
    },
    open: () => {
      const lines = held ?? [];
      held = undefined;
      lines.forEach(write);
    },
  };
}
