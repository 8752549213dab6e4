/**
 * The name a test gives a segment of the grading report (`reset({ segment })`, `POST
 * /_emu/reset?segment=`): it ends up in a JUnit test suite name and a table on a terminal, so
 * it is bounded and printable. Here, below both the control API and the grader, so the two
 * check it alike.
 */
import { EmulatorError } from './errors';

/** The longest segment name, in characters (a pytest node id with its parameters fits). */
export const MAX_SEGMENT_NAME = 200;

/** Control characters, lone surrogates and line or paragraph separators: what a name may not hold. */
const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}]/u;

/** What is wrong with `name` as a segment name, or undefined when it is a good one. */
export function segmentNameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (name.trim() === '') return 'a segment name must have a visible character';
  if (length > MAX_SEGMENT_NAME) return `a segment name has at most ${MAX_SEGMENT_NAME} characters, not ${length}`;
  if (UNPRINTABLE.test(name)) return 'a segment name may not hold control characters or line breaks';
  return undefined;
}

/** `name` when it is a good segment name (undefined passes: no name); `BAD_OPTION` saying why otherwise. */
export function checkedSegmentName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (typeof name !== 'string')
    throw new EmulatorError('BAD_OPTION', `a segment name must be a string, not ${JSON.stringify(name)}`);
  const problem = segmentNameProblem(name);
  if (problem !== undefined) throw new EmulatorError('BAD_OPTION', problem);
  return name;
}
