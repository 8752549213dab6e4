/**
 * Rejected content as the recordings page lists it: the containers
 * `RejectedContent_{time|UnknownTime}_{UUID}` a body worn system stores what it could
 * not upload as a recording into (StoreRejectedContent). Pure.
 */
import { isRejectedContentContainer, parseCompactUtc } from '../../protocol/body-worn';
import type { ContainerRecord } from '../store/object-store';

/** One rejected content container. */
export interface RejectedContent {
  container: string;
  /** The time in its name, epoch ms; undefined for `UnknownTime` (or anything else). */
  time: number | undefined;
  /** What follows the time: the UUID. */
  id: string;
  objects: number;
  bytes: number;
  /** Epoch ms the container was created. */
  created: number;
}

/** Reads `RejectedContent_{time|UnknownTime}_{UUID}`; undefined for other names. */
export function parseRejectedContentName(name: string): { time: number | undefined; id: string } | undefined {
  if (!isRejectedContentContainer(name)) return undefined;
  const rest = name.slice('RejectedContent_'.length);
  const cut = rest.indexOf('_');
  const timeText = cut < 0 ? rest : rest.slice(0, cut);
  return { time: parseCompactUtc(timeText), id: cut < 0 ? '' : rest.slice(cut + 1) };
}

/** The rejected content among `containers`, newest first (by the time in the name, else by creation). */
export function rejectedContentOf(containers: readonly ContainerRecord[]): RejectedContent[] {
  const found: RejectedContent[] = [];
  for (const container of containers) {
    const name = parseRejectedContentName(container.name);
    if (!name) continue;
    found.push({
      container: container.name,
      time: name.time,
      id: name.id,
      objects: container.objects.size,
      bytes: container.bytes,
      created: container.created,
    });
  }
  return found.sort(
    (a, b) =>
      (b.time ?? -Infinity) - (a.time ?? -Infinity) || b.created - a.created || a.container.localeCompare(b.container),
  );
}
