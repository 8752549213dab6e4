/** What the grader needs to know of a device: its stream and token paths, and the topics its scenario publishes. */
import { NEUTRAL_NAMESPACE, renameTopicPrefix } from '../events/topic-filter';
import type { DeviceFacts } from '../grading/journal-index';
import { scenarioTopics } from '../scenario/scenario-topics';
import type { EmulatedDevice } from './handle';

/** The facts of `emulated` as it runs now (its current scenario, its namespace word). */
export function deviceFacts(emulated: EmulatedDevice): DeviceFacts {
  const { device, scenario } = emulated;
  const { namespace, topicAliases, initialStates } = device.options;
  const topics = new Set(initialStates.map((s) => s.topic));
  for (const topic of scenarioTopics(scenario)) topics.add(renameTopicPrefix(topic, NEUTRAL_NAMESPACE, namespace));
  return {
    serial: device.serial,
    streamPath: new URL(device.urls.eventStream).pathname,
    tokenPath: new URL(device.urls.sessionToken).pathname,
    topics: [...topics].sort(),
    topicAliases,
  };
}
