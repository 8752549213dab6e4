/** Checks of option values given to the public API: a bad one is an `EmulatorError` `BAD_OPTION` naming it. */
import { EmulatorError } from './errors';

/** `value` when it is a whole number from `min` to `max`; otherwise `BAD_OPTION` naming `name`. */
export function wholeNumberOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new EmulatorError('BAD_OPTION', `${name} must be a whole number from ${min} to ${max}, not ${value}`);
  return value;
}
