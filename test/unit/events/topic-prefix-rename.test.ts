/** renameTopicPrefix: the namespace word of a persona applied to a topic path. */
import fc from 'fast-check';
import { TOPIC_PATH } from '../../../src/events/event-bus';
import { NEUTRAL_NAMESPACE, renameTopicPrefix } from '../../../src/events/topic-filter';
import { propertyRuns } from '../../helpers/fast-check-config';

describe('renameTopicPrefix', () => {
  it.each([
    ['tns1:Device/tnsvendor:IO/Port', 'tns1:Device/tnsaxis:IO/Port'],
    ['tnsvendor:Root/tnsvendor:Child', 'tnsaxis:Root/tnsaxis:Child'],
    ['tns1:VideoSource/MotionAlarm', 'tns1:VideoSource/MotionAlarm'],
    ['tns1:Device/tnsvendor2:IO/Port', 'tns1:Device/tnsvendor2:IO/Port'],
    ['tns1:Device/xtnsvendor:IO', 'tns1:Device/xtnsvendor:IO'],
    ['tns1:Device/tnsvendor', 'tns1:Device/tnsvendor'],
  ])('%s -> %s', (topic, renamed) => {
    expect(renameTopicPrefix(topic, NEUTRAL_NAMESPACE, 'tnsaxis')).toBe(renamed);
  });

  it('returns the topic itself when from and to are the same', () => {
    expect(renameTopicPrefix('tns1:Device/tnsvendor:IO/Port', 'tnsvendor', 'tnsvendor')).toBe(
      'tns1:Device/tnsvendor:IO/Port',
    );
  });

  const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9._-]{0,8}$/);
  const name = fc.tuple(
    fc.option(fc.constantFrom('tns1', 'tnsvendor', 'tnsvendorx', 'other'), { nil: undefined }),
    word,
  );
  const topic = fc
    .array(name, { minLength: 1, maxLength: 5 })
    .map((names) => names.map(([prefix, local]) => (prefix ? `${prefix}:${local}` : local)).join('/'));

  it('keeps a topic path a topic path, changes only tnsvendor prefixes, and renames back', () => {
    fc.assert(
      fc.property(topic, word, (t, to) => {
        fc.pre(!t.split('/').some((n) => n.startsWith(`${to}:`)) || to === NEUTRAL_NAMESPACE);
        const renamed = renameTopicPrefix(t, NEUTRAL_NAMESPACE, to);
        expect(TOPIC_PATH.test(renamed)).toBe(true);
        const before = t.split('/');
        const after = renamed.split('/');
        expect(after).toHaveLength(before.length);
        before.forEach((n, i) =>
          expect(after[i]).toBe(n.startsWith('tnsvendor:') ? `${to}:${n.slice('tnsvendor:'.length)}` : n),
        );
        expect(renameTopicPrefix(renamed, to, NEUTRAL_NAMESPACE)).toBe(t);
      }),
      propertyRuns(500),
    );
  });
});
