/** What the grader needs to know of a device: its stream and token paths, and the topics its scenario publishes. */
import type { DeviceHandle } from '../device/device-handle';
import { NEUTRAL_NAMESPACE, renameTopicPrefix } from '../events/topic-filter';
import type { DeviceFacts } from '../grading/journal-index';
import { scenarioTopics } from '../scenario/scenario-topics';
import type { Scenario } from '../scenario/schema';

/** The facts of `running` as it runs now (its current scenario's topics, its namespace word). */
export function deviceFacts(running: { device: DeviceHandle; topics: readonly string[] }): DeviceFacts {
  const { device } = running;
  return {
    serial: device.serial,
    streamPath: new URL(device.urls.eventStream).pathname,
    tokenPath: new URL(device.urls.sessionToken).pathname,
    tokenLifetimeMs: device.options.tokenLifetimeMs,
    topics: running.topics,
    topicAliases: device.options.topicAliases,
  };
}

/**
 * The topics `scenario` publishes on `device`, its initial states included, in the device's
 * namespace, sorted: a walk of the whole scenario, which a running device does once per scenario.
 */
export function deviceTopics(device: DeviceHandle, scenario: Scenario): string[] {
  const { namespace, initialStates } = device.options;
  const topics = new Set(initialStates.map((s) => s.topic));
  for (const topic of scenarioTopics(scenario)) topics.add(renameTopicPrefix(topic, NEUTRAL_NAMESPACE, namespace));
  return [...topics].sort();
}
