/**
 * `events:configure` messages for the configure surface: filter lists of grammar-made
 * filters with wrong types, odd entries and extra keys mixed in, lists at and past the
 * filter limit, envelopes with wrong versions, methods and contexts, JSON text edited,
 * binary frames, and messages either side of the size limit.
 */
import fc from 'fast-check';
import { contentFilter, topicFilter } from './filter-arbitraries';
import { applyEdits, textEdit } from './text-arbitraries';

/** One message: its text (or bytes in a binary frame) and how it was made. */
export interface ConfigureCase {
  payload: string;
  binary: boolean;
  kind: string;
}

const wrongType = fc.oneof(
  fc.integer(),
  fc.constant(null),
  fc.boolean(),
  fc.constant([]),
  fc.constant({}),
  fc.double(),
);

const entry: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: topicFilter.map((t) => ({ topicFilter: t })) },
  { weight: 4, arbitrary: contentFilter.map((c) => ({ contentFilter: c })) },
  {
    weight: 3,
    arbitrary: fc.tuple(topicFilter, contentFilter).map(([t, c]) => ({ topicFilter: t, contentFilter: c })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(topicFilter, fc.constantFrom('channelFilter', '__proto__', 'constructor', 'TopicFilter'))
      .map(([t, k]) => ({ topicFilter: t, [k]: 1 })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom('topicFilter', 'contentFilter'), wrongType).map(([k, v]) => ({ [k]: v })),
  },
  { weight: 1, arbitrary: fc.oneof(wrongType, fc.string({ maxLength: 10 }), fc.constant({ nothing: true })) },
);

/** Lists: a few filters mostly; sometimes none, around the 256 limit, or not a list. */
const filterList: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: fc.array(entry, { minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constant([]) },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 250, max: 300 })
      .map((n) => Array.from({ length: n }, (_, i) => ({ topicFilter: `tns1:T${i}` }))),
  },
  { weight: 1, arbitrary: fc.oneof(wrongType, fc.string({ maxLength: 10 })) },
);

const params: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: filterList.map((list) => ({ eventFilterList: list })) },
  { weight: 1, arbitrary: filterList.map((list) => ({ eventFilterList: list, channelFilter: 'x', ['__proto__']: 1 })) },
  { weight: 1, arbitrary: fc.oneof(wrongType, fc.constant(undefined)) },
);

const envelope = fc.record(
  {
    apiVersion: fc.oneof(
      { weight: 8, arbitrary: fc.constant('1.0') },
      { weight: 1, arbitrary: fc.constantFrom('1', '2.0', '1.1', '', 'x') },
      { weight: 1, arbitrary: wrongType },
    ),
    context: fc.oneof(fc.string({ maxLength: 12 }), fc.constant(undefined), wrongType),
    method: fc.oneof(
      { weight: 8, arbitrary: fc.constant('events:configure') },
      { weight: 1, arbitrary: fc.constantFrom('events:notify', 'configure', 'EVENTS:CONFIGURE', '') },
      { weight: 1, arbitrary: wrongType },
    ),
    params,
  },
  { requiredKeys: ['apiVersion', 'method', 'params'] },
);

/** Every kind of configure message, for a device whose `maxMessageBytes` is `limit`. */
export function configureCase(limit: number): fc.Arbitrary<ConfigureCase> {
  return fc.oneof(
    { weight: 14, arbitrary: envelope.map((e) => ({ payload: JSON.stringify(e), binary: false, kind: 'grammar' })) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(envelope, fc.array(textEdit, { minLength: 1, maxLength: 3 }))
        .map(([e, edits]) => ({ payload: applyEdits(JSON.stringify(e), edits), binary: false, kind: 'edited json' })),
    },
    { weight: 1, arbitrary: envelope.map((e) => ({ payload: JSON.stringify(e), binary: true, kind: 'binary frame' })) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: -16, max: 16 }).map((delta) => {
        const base = JSON.stringify({
          apiVersion: '1.0',
          context: 'big',
          method: 'events:configure',
          params: { eventFilterList: [{ topicFilter: '' }] },
        });
        const pad = 'x'.repeat(Math.max(0, limit + delta - base.length - 9));
        return { payload: base.replace(/\}$/, `,"pad":"${pad}"}`), binary: false, kind: 'around the limit' };
      }),
    },
  );
}
