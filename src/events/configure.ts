/**
 * `events:configure`: validation of the request's `eventFilterList` and compilation
 * of every filter, once. Pure: returns the compiled filter set or the RPC error to
 * answer (2103 missing, 2104 invalid, with the entry and the reason).
 */
import { fail, ok, type Result } from '../base/result';
import { isPlainObject, RpcErrorCode, type RpcApiSpec, type RpcError, type RpcRequest } from '../protocol/rpc';
import { type ContentFilter, compileContentFilter, type NotificationMessage } from './content-filter';
import { type TopicFilter, compileTopicFilter } from './topic-filter';

/** Versions and methods of the event stream's JSON messages. */
export const EVENT_STREAM_API: RpcApiSpec = {
  id: 'event-streaming-over-websocket',
  name: 'Event Streaming over WebSocket',
  versions: ['1.0'],
  methods: ['events:configure'],
};

/** One subscription: a topic filter, a content filter, or both (then both must match). */
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
}

/** Default limit on filters per request: far above what clients send, low enough to bound work per event. */
export const DEFAULT_MAX_FILTERS = 256;

/** The compiled filter list, or the error to answer. */
export type ConfigureResult = Result<CompiledFilter[], RpcError>;

/** Validates `params.eventFilterList` and compiles each entry. */
export function compileConfigure(request: RpcRequest, rules: ConfigureRules): ConfigureResult {
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
  const filters: CompiledFilter[] = [];
  for (let i = 0; i < list.length; i++) {
    const entry: unknown = list[i];
    const where = `eventFilterList[${i}]`;
    if (!isPlainObject(entry))
      return fail(
        RpcErrorCode.INVALID_PARAMETER,
        `Invalid parameter: ${where} must be an object with topicFilter and/or contentFilter`,
      );
    const { topicFilter, contentFilter } = entry;
    if (topicFilter === undefined && contentFilter === undefined) {
      return fail(
        RpcErrorCode.PARAMETER_MISSING,
        `Required parameter missing: ${where} needs topicFilter or contentFilter`,
      );
    }
    let topic: TopicFilter | undefined;
    if (topicFilter !== undefined) {
      if (typeof topicFilter !== 'string')
        return fail(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: ${where}.topicFilter must be a string`);
      const compiled = compileTopicFilter(topicFilter, { aliases: rules.topicAliases });
      if (!compiled.ok)
        return fail(
          RpcErrorCode.INVALID_PARAMETER,
          `Invalid parameter: ${where}.topicFilter: ${compiled.error.message}`,
        );
      topic = compiled.value;
    }
    let content: ContentFilter | undefined;
    if (contentFilter !== undefined) {
      if (typeof contentFilter !== 'string')
        return fail(RpcErrorCode.INVALID_PARAMETER, `Invalid parameter: ${where}.contentFilter must be a string`);
      const compiled = compileContentFilter(contentFilter);
      if (!compiled.ok)
        return fail(
          RpcErrorCode.INVALID_PARAMETER,
          `Invalid parameter: ${where}.contentFilter: ${compiled.error.message}`,
        );
      content = compiled.value;
    }
    filters.push({ topic, content });
  }
  return ok(filters);
}

/** Whether one compiled filter selects an event. */
export function filterMatches(filter: CompiledFilter, topic: string, message: NotificationMessage): boolean {
  if (filter.topic && !filter.topic.matches(topic)) return false;
  return !filter.content || filter.content.matches(message);
}
