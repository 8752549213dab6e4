/**
 * The names of the device fault switches, in the bottom layer so that the journal's `fault`
 * entries carry them typed: the switches themselves (what each does, its parameters) are in
 * protocol/fault-catalogue.ts, which is keyed by these names, and the grader matches them typed,
 * so renaming one is a compile error wherever it is used.
 */

/** Every fault switch's name, in catalogue order. */
export const FAULT_NAMES = [
  'stall',
  'drop',
  'reboot',
  'digest',
  'slots',
  'stuck-states',
  'no-initial-states',
  'flap',
  'storm',
  'clock',
  'no-websocket',
  'cgi',
  'tls-host',
] as const;

/** A fault switch's name. */
export type FaultName = (typeof FAULT_NAMES)[number];
