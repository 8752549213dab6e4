/**
 * `events:configure`: validation of the request's `eventFilterList` and compilation
 * of every filter, once. Pure: returns the compiled filter set or the RPC error to
 * answer (2103 missing, 2104 invalid, with the entry and the reason); what it let
 * pass without complaint (unknown keys, empty filters) it tells an optional
 * {@link ConfigureNote} callback, so the session can log it at debug level.
 *
 * Leniency, as real devices and the clients written for them behave:
 * - a filter string that is empty (or XML whitespace only) imposes no condition. Next
 *   to a non-empty one it counts as absent (`{"topicFilter":"tns1:X","contentFilter":""}`
 *   is a topic filter); an entry whose filters are all empty selects every event
 *   (`topicFilter: ""` means all events; so does `contentFilter: ""` alone, and both
 *   empty, which is what a client marshalling both keys on every entry sends for "all");
 * - keys of an entry other than `topicFilter` and `contentFilter` (`channelFilter`, ...)
 *   and keys of `params` other than `eventFilterList` are ignored.
 */
import type { LogFields } from '../base/log';
import { fail, ok, type Result } from '../base/result';
import { isPlainObject, RpcErrorCode, type RpcApiSpec, type RpcError, type RpcRequest } from '../protocol/rpc';
import { type ContentFilter, compileContentFilter } from './content-filter';
import type { NotificationMessage } from './notification-message';
import { isSpace } from './filter-syntax';
import type { FilterCache } from './filter-cache';
import { type TopicFilter, compileTopicFilter } from './topic-filter';

/** Versions and methods of the event stream's JSON messages. */
export const EVENT_STREAM_API: RpcApiSpec = {
  id: 'event-streaming-over-websocket',
  name: 'Event Streaming over WebSocket',
  versions: ['1.0'],
  methods: ['events:configure'],
};

/**
 * One subscription: a topic filter, a content filter, or both (then both must match).
 * An entry that selects every event has the match-all topic filter and no content filter.
 */
export interface CompiledFilter {
  readonly topic: TopicFilter | undefined;
  readonly content: ContentFilter | undefined;
}

/** How configure requests are checked. */
export interface ConfigureRules {
  /** Prefix aliases for topic filters (`onvif` -> `tns1`, ...). */
  topicAliases: Readonly<Record<string, string>>;
  /** Most filters one request may hold. */
  maxFilters: number;
  /** Most terms (topic alternatives plus content comparisons) one filter may hold; {@link DEFAULT_MAX_FILTER_TERMS} when absent. */
  maxFilterTerms?: number;
  /** Deepest nesting of a content filter; the content filter's own maximum (64) when absent. */
  maxFilterNesting?: number;
  /** Where compiled filters are shared between configures that send the same text; none when absent. */
  cache?: FilterCache<CompiledFilter>;
}

/**
 * Hears what a configure accepted without applying: unknown keys, empty filters. The
 * message is fixed text (one per kind of leniency); `fields` say which entry and key.
 */
export type ConfigureNote = (message: string, fields: LogFields) => void;

/** Default limit on filters per request: far above what clients send, low enough to bound work per event. */
export const DEFAULT_MAX_FILTERS = 256;

/** Default limit on terms per filter: a topic with 256 alternatives, or a content filter with 256 comparisons. */
export const DEFAULT_MAX_FILTER_TERMS = 256;

/** The compiled filter list, or the error to answer. */
export type ConfigureResult = Result<CompiledFilter[], RpcError>;

/** The keys of a filter entry the device reads; any other is ignored. */
const ENTRY_KEYS: ReadonlySet<string> = new Set(['topicFilter', 'contentFilter']);

/** The keys of `params` the device reads; any other (`channelFilter`, ...) is ignored. */
const PARAMS_KEYS: ReadonlySet<string> = new Set(['eventFilterList']);

/**
 * Validates `params.eventFilterList` and compiles each entry; `note` hears what was
 * ignored, so a client that sends extra keys can find out why they had no effect.
 */
export function compileConfigure(
  request: RpcRequest,
  rules: ConfigureRules,
  note: ConfigureNote = () => undefined,
): ConfigureResult {
  const list = request.params.eventFilterList;
  if (list === undefined)
    return fail(RpcErrorCode.PARAMETER_MISSING, 'Required parameter missing: params.eventFilterList');
  if (!Array.isArray(list))
    return fail(RpcErrorCode.INVALID_PARAMETER, 'Invalid parameter: eventFilterList must be a list of filters');
  if (list.length === 0) return fail(RpcErrorCode.INVALID_PARAMETER, 'Invalid parameter: eventFilterList is empty');
  if (list.length > rules.maxFilters) {
    return fail(
      RpcErrorCode.INVALID_PARAMETER,
      `Invalid parameter: eventFilterList has ${list.length} filters; at most ${rules.maxFilters} are accepted`,
    );
  }
  const extraParams = Object.keys(request.params).filter((key) => !PARAMS_KEYS.has(key));
  if (extraParams.length > 0) note('events:configure: unknown params ignored', { keys: extraParams });
  const filters: CompiledFilter[] = [];
  const maxTerms = rules.maxFilterTerms ?? DEFAULT_MAX_FILTER_TERMS;
  for (let i = 0; i < list.length; i++) {
    const compiled = compileEntry(list[i], i, rules, note);
    if (!compiled.ok) return compiled;
    const terms = filterTerms(compiled.value);
    if (terms > maxTerms)
      return fail(
        RpcErrorCode.INVALID_PARAMETER,
        `Invalid parameter: eventFilterList[${i}] has ${terms} terms (topic alternatives and content comparisons); at most ${maxTerms} per filter are accepted`,
      );
    filters.push(compiled.value);
  }
  return ok(filters);
}

/**
 * What a filter costs per event, in terms: its topic alternatives plus its content comparisons
 * (at least 1). The device's per-filter and per-account limits count these.
 */
export function filterTerms(filter: CompiledFilter): number {
  return Math.max(1, (filter.topic?.terms ?? 0) + (filter.content?.terms ?? 0));
}

/** Terms of a whole filter list (see {@link filterTerms}). */
export function listTerms(filters: readonly CompiledFilter[]): number {
  let terms = 0;
  for (const filter of filters) terms += filterTerms(filter);
  return terms;
}

/** Whether one compiled filter selects an event. */
export function filterMatches(filter: CompiledFilter, topic: string, message: NotificationMessage): boolean {
  if (filter.topic && !filter.topic.matches(topic)) return false;
  return !filter.content || filter.content.matches(message);
}

/** True for a filter string that imposes no condition: empty, or the whitespace both grammars skip. */
export function isBlankFilter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text[i])) return false;
  return true;
}

/** One entry of `eventFilterList`: checked, its empty filters dropped, the rest compiled. */
function compileEntry(
  entry: unknown,
  index: number,
  rules: ConfigureRules,
  note: ConfigureNote,
): Result<CompiledFilter, RpcError> {
  const where = `eventFilterList[${index}]`;
  if (!isPlainObject(entry))
    return fail(
      RpcErrorCode.INVALID_PARAMETER,
      `Invalid parameter: ${where} must be an object with topicFilter and/or contentFilter`,
    );
  const extra = Object.keys(entry).filter((key) => !ENTRY_KEYS.has(key));
  if (extra.length > 0) note('events:configure: unknown filter keys ignored', { entry: index, keys: extra });
  const { topicFilter, contentFilter } = entry;
  if (topicFilter === undefined && contentFilter === undefined) {
    return fail(
      RpcErrorCode.PARAMETER_MISSING,
      `Required parameter missing: ${where} needs topicFilter or contentFilter`,
    );
  }
  // Types first: a wrongly typed member is an error even where an empty one would be dropped.
  if (topicFilter !== undefined && typeof topicFilter !== 'string')
    return fail(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: ${where}.topicFilter must be a string`);
  if (contentFilter !== undefined && typeof contentFilter !== 'string')
    return fail(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: ${where}.contentFilter must be a string`);
  const topicText = topicFilter !== undefined && !isBlankFilter(topicFilter) ? topicFilter : undefined;
  const contentText = contentFilter !== undefined && !isBlankFilter(contentFilter) ? contentFilter : undefined;
  if (topicText === undefined && contentText === undefined) {
    // Nothing to apply: every event, as `topicFilter: ""` says. Kept as the match-all
    // topic filter so that the effective filter reads the same however it was written.
    if (contentFilter !== undefined) note('events:configure: empty filter selects every event', { entry: index });
    return cached(rules.cache, `\u0001${topicFilter ?? ''}`, () => compileTopic(topicFilter ?? '', where, rules));
  }
  const dropped = [
    ...(topicFilter !== undefined && topicText === undefined ? ['topicFilter'] : []),
    ...(contentFilter !== undefined && contentText === undefined ? ['contentFilter'] : []),
  ];
  if (dropped.length > 0)
    note('events:configure: empty filter next to a non-empty one ignored', { entry: index, keys: dropped });
  const key = `${topicText ?? ''}\u0000${contentText ?? ''}`;
  return cached(rules.cache, key, () => compileTexts(topicText, contentText, where, rules));
}

/** The filter compiled for `key`, from the cache or by `compile` (and then kept there when it compiled). */
function cached(
  cache: FilterCache<CompiledFilter> | undefined,
  key: string,
  compile: () => Result<CompiledFilter, RpcError>,
): Result<CompiledFilter, RpcError> {
  const hit = cache?.get(key);
  if (hit) return ok(hit);
  const compiled = compile();
  if (compiled.ok) cache?.set(key, compiled.value);
  return compiled;
}

/** An entry's non-empty filter texts, compiled. */
function compileTexts(
  topicText: string | undefined,
  contentText: string | undefined,
  where: string,
  rules: ConfigureRules,
): Result<CompiledFilter, RpcError> {
  let topic: TopicFilter | undefined;
  if (topicText !== undefined) {
    const compiled = compileTopic(topicText, where, rules);
    if (!compiled.ok) return compiled;
    topic = compiled.value.topic;
  }
  let content: ContentFilter | undefined;
  if (contentText !== undefined) {
    const compiled = compileContentFilter(contentText, { maxNesting: rules.maxFilterNesting });
    if (!compiled.ok)
      return fail(
        RpcErrorCode.INVALID_PARAMETER,
        `Invalid parameter: ${where}.contentFilter: ${compiled.error.message}`,
      );
    content = compiled.value;
  }
  return ok(Object.freeze({ topic, content }));
}

/** A filter of the topic expression alone, or the 2104 naming the entry and the column. */
function compileTopic(text: string, where: string, rules: ConfigureRules): Result<CompiledFilter, RpcError> {
  const compiled = compileTopicFilter(text, { aliases: rules.topicAliases });
  if (!compiled.ok)
    return fail(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: ${where}.topicFilter: ${compiled.error.message}`);
  return ok(Object.freeze({ topic: compiled.value, content: undefined }));
}
