/**
 * Checks an answer override against its schema and the device's CGI table, so a mistyped CGI
 * or method is refused with a message naming what exists instead of an override that never
 * answers.
 */
import { EmulatorError } from '../base/errors';
import { type OverrideSpec, OverrideSpecSchema } from '../protocol/answer-override-spec';
import { CGI_NAMES, type CgiSpec, DEVICE_CGIS } from './cgi-table';

/** The answers an override may give, for the message of a bad one. */
const ANSWER_SHAPES = '{ error: { code, message } }, { status, body? }, { body: { ... } } or { delayMs }';

/** Every CGI of the table, by file name. */
function cgiByFile(file: string): CgiSpec | undefined {
  const name = CGI_NAMES.find((each) => DEVICE_CGIS[each].file.toLowerCase() === file.toLowerCase());
  return name === undefined ? undefined : DEVICE_CGIS[name];
}

/** `input` as an override; throws `BAD_OVERRIDE` naming what is wrong (and what would do). */
export function checkOverride(input: unknown): OverrideSpec {
  const parsed = OverrideSpecSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) =>
      issue.path[0] === 'answer' && issue.path.length === 1
        ? `answer: one of ${ANSWER_SHAPES}`
        : `${issue.path.map(String).join('.') || 'override'}: ${issue.message}`,
    );
    throw new EmulatorError('BAD_OVERRIDE', `override: ${problems.join('; ')}`);
  }
  const spec = parsed.data;
  const cgi = cgiByFile(spec.cgi);
  if (!cgi) {
    const files = CGI_NAMES.map((name) => DEVICE_CGIS[name].file).join(', ');
    throw new EmulatorError('BAD_OVERRIDE', `override: no CGI "${spec.cgi}"; CGIs: ${files}`);
  }
  if (cgi.rpc === undefined) {
    if (spec.method !== undefined)
      throw new EmulatorError(
        'BAD_OVERRIDE',
        `override: ${cgi.file} is not JSON-RPC; it has no method "${spec.method}"`,
      );
    if ('error' in spec.answer)
      throw new EmulatorError(
        'BAD_OVERRIDE',
        `override: ${cgi.file} is not JSON-RPC; answer with { status, body? } or { body } instead of an error`,
      );
  } else if (spec.method !== undefined && !cgi.rpc.methods.includes(spec.method)) {
    throw new EmulatorError(
      'BAD_OVERRIDE',
      `override: ${cgi.file} has no method "${spec.method}"; methods: ${cgi.rpc.methods.join(', ')}`,
    );
  }
  return { ...spec, cgi: cgi.file };
}
