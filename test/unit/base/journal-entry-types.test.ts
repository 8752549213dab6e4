/**
 * The journal entries' types, inferred from their schemas, keep what writers and readers rely
 * on: read-only fields, and keys a writer must state even when undefined. Checked by the
 * compiler (`tsc --noEmit` covers the tests): each `@ts-expect-error` fails the build when the
 * line below it compiles.
 */
import type { FaultChangeEntry, HttpEntry } from '../../../src/base/journal';
import type { SessionInfo } from '../../../src/index';

/** Whether key `K` of `T` may be left out. */
type IsOptional<T, K extends keyof T> = object extends Pick<T, K> ? true : false;

/** The keys whose optionality the types must keep, and what it must be. */
const OPTIONALITY: {
  httpStatus: IsOptional<HttpEntry, 'status'>;
  httpError: IsOptional<HttpEntry, 'error'>;
  httpCall: IsOptional<HttpEntry, 'call'>;
  httpVia: IsOptional<HttpEntry, 'via'>;
  faultNameTyped: string extends FaultChangeEntry['name'] ? false : true;
  sessionRemote: IsOptional<SessionInfo, 'remoteAddress'>;
  sessionVia: IsOptional<SessionInfo, 'via'>;
} = {
  httpStatus: false,
  httpError: false,
  httpCall: true,
  httpVia: true,
  faultNameTyped: true,
  sessionRemote: false,
  sessionVia: true,
};

describe('the journal entry types', () => {
  it('state the keys a writer must give (if only as undefined), and leave the others optional', () => {
    expect(OPTIONALITY.httpStatus).toBe(false);
  });

  it('are read-only, a fault change its params too', () => {
    const fault = { params: {} } as FaultChangeEntry;
    const http = {} as HttpEntry;
    const write = (): void => {
      // @ts-expect-error: an entry is read-only
      http.status = 200;
      // @ts-expect-error: a fault's params are read-only
      fault.params.x = 1;
    };
    expect(typeof write).toBe('function');
  });
});
