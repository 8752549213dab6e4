import fc from 'fast-check';
import {
  CAPABILITY_NAMES,
  CAPABILITY_SECTIONS,
  capabilitiesDocument,
  formatCompactUtc,
  isClipObject,
  isRejectedContentContainer,
  parseCompactUtc,
  parseEpochSeconds,
  parseRecordingContainer,
  recordingContainerName,
  type CapabilityName,
} from '../../../src/protocol/body-worn';
import { propertyRuns } from '../../helpers/fast-check-config';

const T_2024_01_02_03_04_05 = Date.UTC(2024, 0, 2, 3, 4, 5);

/** 0100-01-01T00:00:00Z .. 9999-12-31T23:59:59.999Z (see the skipped test for years 0000-0099). */
const MIN_MS = Date.UTC(100, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

describe('parseRecordingContainer', () => {
  it('reads user ID, serial number and trigger-on time', () => {
    expect(parseRecordingContainer('alice_BWC0001_20240102T030405Z')).toEqual({
      userId: 'alice',
      serial: 'BWC0001',
      triggerOnTime: T_2024_01_02_03_04_05,
    });
  });

  it.each([
    ['first_last_BWC0001_20240102T030405Z', 'first_last'],
    ['a_b_c_d_SN-9_20240102T030405Z', 'a_b_c_d'],
    ['__x_SN_20240102T030405Z', '__x'],
    ['_SN_SN_20240102T030405Z', '_SN'],
  ])('reads %s from the right: the user ID is %j', (name, userId) => {
    const parsed = parseRecordingContainer(name);
    expect(parsed).toMatchObject({ userId, triggerOnTime: T_2024_01_02_03_04_05 });
    expect(parsed && 'serial' in parsed && parsed.serial).not.toContain('_');
  });

  it.each([
    '20231301T000000Z',
    '20240230T000000Z',
    '20230229T000000Z',
    '20240100T000000Z',
    '20240101T240000Z',
    '20240101T006000Z',
    '20240101T000060Z',
    '20241232T000000Z',
    '00000000T000000Z',
  ])('gives { badTime } for the unreal time %s', (time) => {
    expect(parseRecordingContainer(`alice_BWC0001_${time}`)).toEqual({ badTime: time });
  });

  it('accepts 29 February of a leap year', () => {
    expect(parseRecordingContainer('alice_BWC0001_20240229T235959Z')).toEqual({
      userId: 'alice',
      serial: 'BWC0001',
      triggerOnTime: Date.UTC(2024, 1, 29, 23, 59, 59),
    });
  });

  it.each([
    'alice_BWC0001',
    'alice_20240102T030405Z',
    'BWC0001_20240102T030405Z',
    '_BWC0001_20240102T030405Z',
    'alice__20240102T030405Z',
    'alice_BWC0001_20240102T030405',
    'alice_BWC0001_20240102T030405z',
    'alice_BWC0001_20240102t030405Z',
    'alice_BWC0001_2024-01-02T03:04:05Z',
    'alice_BWC0001_20240102T030405Z.mkv',
    'alice_BWC0001_20240102T0304051Z',
    'alice_BWC0001_2024010T030405Z',
    'RejectedContent_UnknownTime_6f1c2b0e-2f5a-4d8e-9b7a-1c2d3e4f5a6b',
    'System',
    '',
  ])('gives undefined for %j, which has not the shape', (name) => {
    expect(parseRecordingContainer(name)).toBeUndefined();
  });
});

describe('recordingContainerName', () => {
  it('joins user ID, serial and the compact UTC time', () => {
    expect(recordingContainerName('alice', 'BWC0001', T_2024_01_02_03_04_05)).toBe('alice_BWC0001_20240102T030405Z');
    expect(recordingContainerName('first_last', 'SN1', Date.UTC(1999, 11, 31, 23, 59, 59, 999))).toBe(
      'first_last_SN1_19991231T235959Z',
    );
  });

  it('round-trips through parseRecordingContainer (times to the second)', () => {
    const userId = fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/);
    const serial = fc.stringMatching(/^[A-Za-z0-9.-]{1,12}$/);
    fc.assert(
      fc.property(userId, serial, fc.integer({ min: 0, max: MAX_MS }), (user, sn, ms) => {
        expect(parseRecordingContainer(recordingContainerName(user, sn, ms))).toEqual({
          userId: user,
          serial: sn,
          triggerOnTime: Math.floor(ms / 1000) * 1000,
        });
      }),
      propertyRuns(1000),
    );
  });
});

describe('formatCompactUtc and parseCompactUtc', () => {
  it.each([
    [T_2024_01_02_03_04_05, '20240102T030405Z'],
    [0, '19700101T000000Z'],
    [Date.UTC(2024, 1, 29, 12, 0, 0, 750), '20240229T120000Z'],
    [-1, '19691231T235959Z'],
  ])('formats %d as %s', (ms, text) => {
    expect(formatCompactUtc(ms)).toBe(text);
  });

  it('parses a compact UTC time to epoch ms', () => {
    expect(parseCompactUtc('20240102T030405Z')).toBe(T_2024_01_02_03_04_05);
    expect(parseCompactUtc('19700101T000000Z')).toBe(0);
    expect(parseCompactUtc('99991231T235959Z')).toBe(Date.UTC(9999, 11, 31, 23, 59, 59));
  });

  it.each([
    '',
    '20240102T030405',
    '20240102 030405Z',
    '2024-01-02T03:04:05Z',
    '20240102T030405.000Z',
    ' 20240102T030405Z',
    '20231301T000000Z',
    '20240230T000000Z',
    '20240101T240000Z',
  ])('refuses %j', (text) => {
    expect(parseCompactUtc(text)).toBeUndefined();
  });

  it('round-trips: parse(format(ms)) is ms truncated to the second', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_MS, max: MAX_MS }), (ms) => {
        expect(parseCompactUtc(formatCompactUtc(ms))).toBe(Math.floor(ms / 1000) * 1000);
      }),
      propertyRuns(2000),
    );
  });

  it('reads years 0000-0099 as themselves', () => {
    const ms = new Date('0050-06-01T00:00:00Z').getTime();
    expect(formatCompactUtc(ms)).toBe('00500601T000000Z');
    expect(parseCompactUtc('00500601T000000Z')).toBe(ms);
  });

  it('round-trips: format(parse(text)) is text for every real time', () => {
    const pad = (n: number, width: number): string => String(n).padStart(width, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9999 }), // years 0000-0099: see the skipped test above
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        (year, month, day, hour, minute, second) => {
          const text = `${pad(year, 4)}${pad(month, 2)}${pad(day, 2)}T${pad(hour, 2)}${pad(minute, 2)}${pad(second, 2)}Z`;
          const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
          const parsed = parseCompactUtc(text);
          if (day > daysInMonth) {
            expect(parsed).toBeUndefined();
          } else {
            expect(parsed).toBeDefined();
            expect(formatCompactUtc(parsed as number)).toBe(text);
          }
        },
      ),
      propertyRuns(2000),
    );
  });
});

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

describe('isRejectedContentContainer', () => {
  it.each([
    ['RejectedContent_20240102T030405Z_6f1c2b0e-2f5a-4d8e-9b7a-1c2d3e4f5a6b', true],
    ['RejectedContent_UnknownTime_6f1c2b0e-2f5a-4d8e-9b7a-1c2d3e4f5a6b', true],
    ['RejectedContent_', true],
    ['RejectedContent', false],
    ['rejectedcontent_UnknownTime_x', false],
    ['xRejectedContent_UnknownTime_x', false],
    ['alice_BWC0001_20240102T030405Z', false],
    ['', false],
  ])('%j -> %s', (name, expected) => {
    expect(isRejectedContentContainer(name)).toBe(expected);
  });
});

describe('isClipObject', () => {
  it.each([
    ['20240102T030405Z_6f1c2b0e.mkv', true],
    ['20240102T030405Z_6f1c2b0e.mp4', true],
    ['clip.MKV', true],
    ['clip.Mp4', true],
    ['dir/clip.mp4', true],
    ['.mkv', true],
    ['clip.mov', false],
    ['clip.mkv.json', false],
    ['clip.mp4/', false],
    ['clipmkv', false],
    ['clip.mp', false],
    ['clip.gpx', false],
    ['', false],
  ])('%j -> %s', (name, expected) => {
    expect(isClipObject(name)).toBe(expected);
  });
});

describe('parseEpochSeconds', () => {
  it.each([
    ['1700000000', 1_700_000_000],
    ['0', 0],
    ['1700000000.5', 1_700_000_000.5],
    ['1700000000.123456', 1_700_000_000.123456],
    [' 1700000000 ', 1_700_000_000],
    ['999999999999', 999_999_999_999],
    ['0001', 1],
  ])('reads %j as %d', (text, expected) => {
    expect(parseEpochSeconds(text)).toBe(expected);
  });

  it.each([
    undefined,
    '',
    ' ',
    '-1',
    '+1',
    '1e9',
    '1.',
    '.5',
    '1.1234567',
    '1234567890123',
    '0x10',
    '1,5',
    '17000 00000',
    'NaN',
    'Infinity',
  ])('refuses %j', (text) => {
    expect(parseEpochSeconds(text)).toBeUndefined();
  });

  it('reads back any whole number of seconds it is given', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999_999 }), (seconds) => {
        expect(parseEpochSeconds(String(seconds))).toBe(seconds);
      }),
      propertyRuns(500),
    );
  });
});

describe('capabilities', () => {
  it('CAPABILITY_NAMES has the 7 names, in file order', () => {
    expect(CAPABILITY_NAMES).toEqual([
      'ReadCategories',
      'StoreUserIDKey',
      'StoreBookmarks',
      'StoreSignedVideo',
      'StoreGNSSTrackRecording',
      'StoreRejectedContent',
      'StoreReadSystemID',
    ]);
    expect(new Set(CAPABILITY_NAMES).size).toBe(7);
    expect(Object.values(CAPABILITY_SECTIONS).flat()).toEqual(CAPABILITY_NAMES);
  });

  it('capabilitiesDocument({}) says false for every name, by section', () => {
    expect(capabilitiesDocument({})).toEqual({
      Read: { ReadCategories: false },
      Store: {
        StoreUserIDKey: false,
        StoreBookmarks: false,
        StoreSignedVideo: false,
        StoreGNSSTrackRecording: false,
        StoreRejectedContent: false,
      },
      StoreAndRead: { StoreReadSystemID: false },
    });
  });

  it('says true only for the names given as true', () => {
    expect(
      capabilitiesDocument({
        ReadCategories: true,
        StoreRejectedContent: true,
        StoreBookmarks: false,
        StoreReadSystemID: true,
      }),
    ).toEqual({
      Read: { ReadCategories: true },
      Store: {
        StoreUserIDKey: false,
        StoreBookmarks: false,
        StoreSignedVideo: false,
        StoreGNSSTrackRecording: false,
        StoreRejectedContent: true,
      },
      StoreAndRead: { StoreReadSystemID: true },
    });
  });

  it('for any subset, each name is true exactly when given true, and nothing else appears', () => {
    fc.assert(
      fc.property(fc.subarray([...CAPABILITY_NAMES]), (chosen) => {
        const supported: Partial<Record<CapabilityName, boolean>> = Object.fromEntries(
          chosen.map((name) => [name, true]),
        );
        const document = capabilitiesDocument(supported);
        const flat = { ...document.Read, ...document.Store, ...document.StoreAndRead };
        expect(Object.keys(flat).sort()).toEqual([...CAPABILITY_NAMES].sort());
        for (const name of CAPABILITY_NAMES) expect(flat[name]).toBe(chosen.includes(name));
        for (const [section, list] of Object.entries(CAPABILITY_SECTIONS))
          expect(Object.keys(document[section as keyof typeof document])).toEqual(list);
      }),
      propertyRuns(200),
    );
  });
});
