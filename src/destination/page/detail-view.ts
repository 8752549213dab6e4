/**
 * The detail page of one recording (or rejected content container):
 * `GET /recordings/{container}`: its status and totals, every object it holds (clips,
 * bookmarks, GNSS tracks, keyfiles) with size, duration, ETag and metadata, each linked
 * for download, and the container's metadata, values URL-decoded. Pure.
 */
import { canonicalHeaderName } from '../../protocol/swift';
import { clipSeconds, type RecordingInfo } from '../recordings';
import type { ContainerRecord, ObjectRecord, StoredMetadata } from '../store/object-store';
import { decodeMetadataValue, formatSeconds } from './format';
import { instant, objectHref, size, statusBadge } from './fragments';
import { type HtmlValue, markup, type SafeHtml } from './html';
import { tableHead } from './table-head';
import { layout } from './layout';
import { pageStatus, statusClass } from './page-status';

/** What the detail page shows. */
export interface DetailView {
  container: string;
  now: number;
  stalledAfterMs: number;
  /** The recording, when the container is one (or was refused as one). */
  recording: RecordingInfo | undefined;
  /** The stored container; undefined when it was refused before it was ever created. */
  stored: ContainerRecord | undefined;
  /** Its objects, sorted by name. */
  objects: readonly ObjectRecord[];
}

/** The whole page. */
export function detailPage(view: DetailView): string {
  const { container, now, stalledAfterMs, recording, stored, objects } = view;
  const kind = recording ? 'Recording' : 'Rejected content';
  const facts: [string, HtmlValue][] = [];
  if (recording) {
    const status = pageStatus(recording, now, stalledAfterMs);
    const badge = statusBadge(recording, status, now);
    facts.push(
      ['Status', markup`<span class="${statusClass(status)}" data-status="${status}">${badge}</span>`],
      ['User', recording.userId],
      ['Camera', recording.serial],
      ['Triggered', recording.triggerOnTime ? instant(Date.parse(recording.triggerOnTime), now) : 'unknown'],
      ['Clips', recording.clips],
      ['Size', size(recording.bytes)],
      ['Duration', formatSeconds(recording.durationSeconds)],
    );
  } else facts.push(['Objects', objects.length], ['Size', size(stored?.bytes ?? 0)]);
  facts.push(['Container', stored ? markup`created ${instant(stored.created, now)}` : 'never created (refused)']);
  const body = markup`<p><a href="/">All recordings</a></p>
<h1>${kind} <code>${container}</code></h1>
${definitions(facts)}
<h2>Objects (${objects.length})</h2>
${objects.length === 0 ? markup`<p>No objects stored.</p>` : objectTable(container, objects)}
<h2>Container metadata</h2>
${metadataList(stored?.metadata ?? {})}`;
  return layout(`${kind} ${container}`, body);
}

function objectTable(container: string, objects: readonly ObjectRecord[]): SafeHtml {
  const rows = objects.map((o) => {
    const seconds = clipSeconds(o.metadata);
    return markup`<tr data-object="${o.name}">
<td data-label="Name"><a href="${objectHref(container, o.name)}">${o.name}</a><small>${o.contentType}</small></td>
<td class="num" data-label="Size">${size(o.bytes)}</td>
<td class="num" data-label="Duration">${seconds === undefined ? '' : formatSeconds(seconds)}</td>
<td data-label="ETag"><code>${o.etag}</code></td>
<td data-label="Metadata">${metadataList(o.metadata)}</td>
</tr>
`;
  });
  const head = tableHead(['Name', '#Size', '#Duration', 'ETag', 'Metadata']);
  return markup`<table class="objects">${head}<tbody>\n${rows}</tbody></table>`;
}

/** Metadata as name: value, the value URL-decoded (the value as sent in the title when it differs). */
function metadataList(metadata: StoredMetadata): SafeHtml {
  const names = Object.keys(metadata).sort();
  if (names.length === 0) return markup`<p>None.</p>`;
  return definitions(
    names.map((name) => {
      const value = metadata[name];
      const decoded = decodeMetadataValue(value);
      return [canonicalHeaderName(name), decoded === value ? value : markup`<span title="${value}">${decoded}</span>`];
    }),
  );
}

function definitions(items: [string, HtmlValue][]): SafeHtml {
  return markup`<dl class="meta">${items.map(([name, value]) => markup`<dt>${name}</dt><dd>${value}</dd>`)}</dl>`;
}
