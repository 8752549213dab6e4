/**
 * The live sessions' filters, indexed by topic, so that publishing an event costs
 * in the sessions it reaches, not in the sessions it does not.
 *
 * Filters that read the same (the same canonical topics and subtrees, the same content
 * filter) form one {@link FilterGroup}, whatever session or spelling (`onvif:` or
 * `tns1:`) they come from. Groups are indexed by their exact topics, by their subtree
 * prefixes (`path/`), or as "any topic" (match-all, content filter alone). For an event
 * the index looks up the groups of its topic (kept per topic until the groups change),
 * evaluates each group's content filter once, and hands the event to every member
 * session of a group that matches; a content filter shared by several groups is
 * evaluated once per event too.
 */
import type { CompiledFilter } from './configure';
import type { ContentFilter } from './content-filter';
import type { DeviceEvent } from './event-bus';

/** A session as the index sees it. */
export interface FilterSubscriber {
  /** `event` matched `times` of this subscriber's filters: it is sent that many times. */
  deliverMatched(event: DeviceEvent, times: number): void;
}

/** Past this many topics, the per-topic lists are forgotten and rebuilt as events come. */
const MAX_CACHED_TOPICS = 4096;

/** A content filter shared by every group that has it, evaluated at most once per event. */
class SharedContent {
  /** Groups holding it. */
  holders = 0;
  private lastEvent: DeviceEvent | undefined;
  private lastResult = false;

  constructor(readonly filter: ContentFilter) {}

  matches(event: DeviceEvent): boolean {
    if (this.lastEvent !== event) {
      this.lastResult = this.filter.matches(event.message);
      this.lastEvent = event;
    }
    return this.lastResult;
  }
}

/** Every session's filter that reads the same, with how many times each session holds it. */
class FilterGroup {
  readonly members: FilterSubscriber[] = [];
  /** How many of each member's filters are this one (`times[i]` for `members[i]`). */
  readonly times: number[] = [];
  /** Each member's place, made past {@link INDEXED_MEMBERS} members (a scan of a few is cheaper than a map). */
  private position: Map<FilterSubscriber, number> | undefined = undefined;

  constructor(
    readonly key: string,
    /** Where the index lists the group: its exact topics and prefixes, or neither for any topic. */
    readonly exact: readonly string[],
    readonly subtrees: readonly string[],
    readonly content: SharedContent | undefined,
  ) {}

  get empty(): boolean {
    return this.members.length === 0;
  }

  add(member: FilterSubscriber): void {
    const at = this.placeOf(member);
    if (at !== undefined) {
      this.times[at]++;
      return;
    }
    this.position?.set(member, this.members.length);
    this.members.push(member);
    this.times.push(1);
    if (this.position === undefined && this.members.length > INDEXED_MEMBERS)
      this.position = new Map(this.members.map((m, i) => [m, i]));
  }

  /** Takes one holding of the filter away from `member` (all of them once its count is 0). */
  remove(member: FilterSubscriber): void {
    const at = this.placeOf(member);
    if (at === undefined) return;
    if (--this.times[at] > 0) return;
    // The last member moves into the hole: O(1), order does not matter.
    const last = this.members.length - 1;
    const moved = this.members[last];
    this.members[at] = moved;
    this.times[at] = this.times[last];
    this.position?.set(moved, at);
    this.members.pop();
    this.times.pop();
    this.position?.delete(member);
  }

  /** Where `member` is in {@link members}, if it is. */
  private placeOf(member: FilterSubscriber): number | undefined {
    if (this.position) return this.position.get(member);
    const at = this.members.indexOf(member);
    return at < 0 ? undefined : at;
  }
}

/** Past this many members a group keeps a map of their places. */
const INDEXED_MEMBERS = 8;

/** The sessions' filters by topic; see the module comment. */
export class FilterIndex {
  private readonly groups = new Map<string, FilterGroup>();
  private readonly byTopic = new Map<string, FilterGroup[]>();
  /** Made at the first subtree filter, as {@link contents} at the first content filter: most sessions have neither. */
  private bySubtree: Map<string, FilterGroup[]> | undefined = undefined;
  private readonly anyTopic: FilterGroup[] = [];
  private contents: Map<string, SharedContent> | undefined = undefined;
  /** The groups that can match each topic seen since the groups last changed. */
  private readonly candidates = new Map<string, readonly FilterGroup[]>();
  /** True while an event is handed out: changes wait until it is done (see {@link later}). */
  private delivering = false;
  private readonly later: (() => void)[] = [];

  /** `subscriber` now holds `filters` (one holding per filter, duplicates counted). */
  add(subscriber: FilterSubscriber, filters: readonly CompiledFilter[]): void {
    if (this.deferred(() => this.add(subscriber, filters))) return;
    for (const filter of filters) this.groupOf(filter).add(subscriber);
  }

  /** `subscriber` no longer holds `filters` (as given to {@link add}). */
  remove(subscriber: FilterSubscriber, filters: readonly CompiledFilter[]): void {
    if (this.deferred(() => this.remove(subscriber, filters))) return;
    for (const filter of filters) {
      const group = this.groups.get(groupKey(filter));
      if (!group) continue;
      group.remove(subscriber);
      if (group.empty) this.drop(group);
    }
  }

  /** Hands `event` to every subscriber with a matching filter, once per matching filter. */
  deliver(event: DeviceEvent): void {
    const groups = this.candidates.get(event.topic) ?? this.lookUp(event.topic);
    this.delivering = true;
    try {
      for (let g = 0; g < groups.length; g++) {
        const group = groups[g];
        if (group.content && !group.content.matches(event)) continue;
        const { members, times } = group;
        for (let m = 0; m < members.length; m++) members[m].deliverMatched(event, times[m]);
      }
    } finally {
      this.delivering = false;
      if (this.later.length > 0) for (const change of this.later.splice(0)) change();
    }
  }

  /** Distinct filters held (groups), for tests and reports. */
  get size(): number {
    return this.groups.size;
  }

  /** While an event is handed out, `change` waits for its end (a subscriber may close as it is sent to). */
  private deferred(change: () => void): boolean {
    if (!this.delivering) return false;
    this.later.push(change);
    return true;
  }

  /** The groups that can match `topic`: exact, each ancestor's subtree, any topic; kept for next time. */
  private lookUp(topic: string): readonly FilterGroup[] {
    const found = new Set<FilterGroup>(this.byTopic.get(topic));
    const { bySubtree } = this;
    if (bySubtree)
      for (let slash = topic.indexOf('/'); slash >= 0; slash = topic.indexOf('/', slash + 1)) {
        const under = bySubtree.get(topic.slice(0, slash + 1));
        if (under) for (const group of under) found.add(group);
      }
    for (const group of this.anyTopic) found.add(group);
    const groups = [...found];
    if (this.candidates.size >= MAX_CACHED_TOPICS) this.candidates.clear();
    this.candidates.set(topic, groups);
    return groups;
  }

  private groupOf(filter: CompiledFilter): FilterGroup {
    const key = groupKey(filter);
    let group = this.groups.get(key);
    if (group) return group;
    const topic = filter.topic;
    const everyTopic = !topic || topic.matchesAll;
    group = new FilterGroup(
      key,
      everyTopic ? [] : topic.exact,
      everyTopic ? [] : topic.subtrees,
      filter.content && this.sharedContent(filter.content),
    );
    this.groups.set(key, group);
    if (everyTopic) this.anyTopic.push(group);
    for (const exact of group.exact) listIn(this.byTopic, exact).push(group);
    if (group.subtrees.length > 0) {
      const bySubtree = (this.bySubtree ??= new Map<string, FilterGroup[]>());
      for (const prefix of group.subtrees) listIn(bySubtree, prefix).push(group);
    }
    this.candidates.clear();
    return group;
  }

  private drop(group: FilterGroup): void {
    this.groups.delete(group.key);
    if (group.exact.length === 0 && group.subtrees.length === 0) unlist(this.anyTopic, group);
    for (const exact of group.exact) unlistIn(this.byTopic, exact, group);
    const { bySubtree } = this;
    if (bySubtree) for (const prefix of group.subtrees) unlistIn(bySubtree, prefix, group);
    const content = group.content;
    if (content && --content.holders === 0) this.contents?.delete(content.filter.source);
    this.candidates.clear();
  }

  private sharedContent(filter: ContentFilter): SharedContent {
    const contents = (this.contents ??= new Map<string, SharedContent>());
    let shared = contents.get(filter.source);
    if (!shared) {
      shared = new SharedContent(filter);
      contents.set(filter.source, shared);
    }
    shared.holders++;
    return shared;
  }
}

/**
 * What makes two filters the same: the canonical topics and subtrees they select (so
 * spellings and order of alternatives do not matter) and the content filter's text.
 */
function groupKey(filter: CompiledFilter): string {
  let key = groupKeys.get(filter);
  if (key === undefined) {
    const topic = filter.topic;
    const topics =
      !topic || topic.matchesAll ? '*' : `${[...topic.exact].sort().join('|')}>${[...topic.subtrees].sort().join('|')}`;
    key = filter.content ? `${topics}\u0000${filter.content.source}` : topics;
    groupKeys.set(filter, key);
  }
  return key;
}

/** Each compiled filter's group key, worked out once: configures of the same text share their compiled filters. */
const groupKeys = new WeakMap<CompiledFilter, string>();

function listIn(map: Map<string, FilterGroup[]>, key: string): FilterGroup[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}

function unlistIn(map: Map<string, FilterGroup[]>, key: string, group: FilterGroup): void {
  const list = map.get(key);
  if (!list) return;
  unlist(list, group);
  if (list.length === 0) map.delete(key);
}

function unlist(list: FilterGroup[], group: FilterGroup): void {
  const at = list.indexOf(group);
  if (at >= 0) list.splice(at, 1);
}
