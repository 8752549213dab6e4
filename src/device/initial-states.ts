/**
 * The stateful events a device holds from the start, as a real one does: a session is told
 * them right after a matching configure.
 */
import type { NotificationMessage } from '../events/notification-message';
import { NEUTRAL_NAMESPACE, renameTopicPrefix } from '../events/topic-filter';

/** A stateful event present when the device starts. */
export interface InitialState {
  topic: string;
  message: NotificationMessage;
}

/**
 * What a freshly booted device reports as its state. Frozen through and through, so that
 * the events a device publishes from it share its messages (see EventBus.publish).
 */
export const DEFAULT_INITIAL_STATES = deepFreeze<readonly InitialState[]>([
  { topic: 'tns1:Device/tnsvendor:Status/SystemReady', message: { source: {}, key: {}, data: { ready: '1' } } },
  { topic: 'tns1:Device/tnsvendor:IO/Port', message: { source: { port: '1' }, key: {}, data: { state: '0' } } },
  { topic: 'tns1:Device/tnsvendor:IO/Port', message: { source: { port: '2' }, key: {}, data: { state: '0' } } },
]);

/** The states with their `tnsvendor:` topics in `namespace`, as the device publishes them. */
export function inNamespace(states: readonly InitialState[], namespace: string): InitialState[] {
  const renamed = states.map((s) => renameTopicPrefix(s.topic, NEUTRAL_NAMESPACE, namespace));
  // The same list when no topic changes: a fleet's devices then share it.
  if (renamed.every((topic, i) => topic === states[i].topic)) return states as InitialState[];
  return states.map((s, i) => (renamed[i] === s.topic ? s : { ...s, topic: renamed[i] }));
}

/** `value` with every object in it frozen. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
