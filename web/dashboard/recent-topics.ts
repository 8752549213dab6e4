/** The topics published from this page, newest first, kept in localStorage per device serial. */

const MAX_TOPICS = 10;

/** The recent topics of device `serial`. */
export function recentTopics(serial: string): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(keyOf(serial)) ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((t): t is string => typeof t === 'string').slice(0, MAX_TOPICS) : [];
  } catch {
    return [];
  }
}

/** Puts `topic` first in device `serial`'s recent topics; returns them. */
export function rememberTopic(serial: string, topic: string): string[] {
  const topics = [topic, ...recentTopics(serial).filter((t) => t !== topic)].slice(0, MAX_TOPICS);
  try {
    localStorage.setItem(keyOf(serial), JSON.stringify(topics));
  } catch {
    // Storage full or off (private window): the list lasts for this page only.
  }
  return topics;
}

function keyOf(serial: string): string {
  return `bwc-emu.recent-topics.${serial}`;
}
