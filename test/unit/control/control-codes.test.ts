/** The control API's code catalogue: each code's status as the call sites answered it before, and the docs made from it. */
import { ERROR_CODES, EmulatorError, type EmulatorErrorCode } from '../../../src/base/errors';
import {
  CONTROL_CODES,
  EMULATOR_ERROR_STATUSES,
  meaningOf,
  refusalDocs,
  statusOf,
} from '../../../src/control/control-codes';
import { ControlError } from '../../../src/control/control-error';

describe('CONTROL_CODES', () => {
  it('answers each code with the status its refusal had when every call site named it', () => {
    const statuses = Object.fromEntries(Object.entries(CONTROL_CODES).map(([code, spec]) => [code, spec.status]));
    expect(statuses).toEqual({
      BAD_REQUEST: 400,
      BAD_SCENARIO: 400,
      FLAG_NOT_FOUND: 400,
      UNAUTHORIZED: 401,
      FORBIDDEN: 403,
      HOST_NOT_ALLOWED: 403,
      CROSS_ORIGIN: 403,
      NOT_FOUND: 404,
      NO_SUCH_DEVICE: 404,
      METHOD_NOT_ALLOWED: 405,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      THROTTLED: 429,
      INTERNAL: 500,
      NOT_READY: 503,
      TOO_MANY_FEEDS: 503,
    });
  });

  it('answers every EmulatorError code 400, but TIMEOUT 408 and LIMIT 429', () => {
    for (const code of Object.keys(ERROR_CODES) as EmulatorErrorCode[]) {
      const expected = code === 'TIMEOUT' ? 408 : code === 'LIMIT' ? 429 : 400;
      expect([code, EMULATOR_ERROR_STATUSES[code]]).toEqual([code, expected]);
    }
  });
});

describe('ControlError', () => {
  it('takes its status from the catalogue, unless it passes on another', () => {
    expect(new ControlError('NO_SUCH_DEVICE', 'x').status).toBe(404);
    expect(new ControlError('TOO_MANY_FEEDS', 'x').status).toBe(503);
    expect(new ControlError('BAD_REQUEST', 'x', {}, 403).status).toBe(403);
  });

  it("tells an EmulatorError's code apart from the control API's own of the same name", () => {
    expect(statusOf('NO_SUCH_DEVICE')).toBe(404);
    expect(EMULATOR_ERROR_STATUSES[new EmulatorError('NO_SUCH_DEVICE', 'x').code]).toBe(400);
  });
});

describe('refusalDocs', () => {
  it('documents each code under its status as "CODE: meaning", those of one status joined', () => {
    expect(refusalDocs('UNAUTHORIZED', 'FORBIDDEN', 'CROSS_ORIGIN', ['LIMIT', 'its own words'])).toEqual({
      401: `UNAUTHORIZED: ${meaningOf('UNAUTHORIZED')}`,
      403: `FORBIDDEN: ${meaningOf('FORBIDDEN')}; CROSS_ORIGIN: ${meaningOf('CROSS_ORIGIN')}`,
      429: 'LIMIT: its own words',
    });
  });

  it("reads an EmulatorError code's meaning from base/errors", () => {
    expect(meaningOf('BAD_FAULT')).toBe(ERROR_CODES.BAD_FAULT);
  });
});
