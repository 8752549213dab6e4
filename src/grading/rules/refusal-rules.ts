/**
 * Rules about requests the device refused for what they say: a CGI's JSON-RPC error answers,
 * event stream messages it could not read, and a refused request sent again unchanged.
 */
import type { BodyExcerpt } from '../../base/body-excerpt';
import type { ConfigureEntry, HttpEntry, MessageRefusedEntry } from '../../base/journal';
import { RpcErrorCode } from '../../protocol/rpc';
import { finding, formatMs, type GradingContext, groupBy, plural, type Rule, type RuleTable } from '../grading-context';
import { remoteOf, type Timed } from '../journal-index';
import type { Finding } from '../report';
import { pathOf } from './auth-rules';

/** Characters of what a request sent that a finding's one line repeats (the evidence has the whole excerpt). */
const SENT_IN_MESSAGE = 120;

/** `rpc-error`: CGI answers with a JSON-RPC error the client caused, one finding per client, method and code. */
export const rpcError: Rule = (context) => {
  const refused = context.index.ofKind('http').filter((h) => h.entry.error && isClientsError(h.entry.error.code));
  const groups = groupBy(refused, (h) => `${h.entry.device} ${remoteOf(h.entry.remote)} ${callOf(h.entry)} ${code(h)}`);
  return [...groups.values()].map((group) => {
    const { device, remote, error } = group[0].entry;
    const { code, message } = error as { code: number; message: string };
    const line = `${plural(group.length, 'request')} to ${callOf(group[0].entry)} answered ${code} ${message}`;
    return finding('rpc-error', device, context.index.client(remote), line + sentOf(group[0].entry.body), group);
  });
};

/** `message-refused`: event stream messages refused before they were a request, one finding per client and code. */
export const messageRefused: Rule = (context) => {
  const refused = context.index.ofKind('message-refused');
  const remoteOfEntry = sessionRemote(context);
  const groups = groupBy(refused, (r) => `${r.entry.device} ${remoteOfEntry(r)} ${r.entry.code}`);
  return [...groups.values()].map((group) => {
    const { device, code, message, closed, sent } = group[0].entry;
    const line = closed
      ? `${plural(group.length, 'session')} closed with ${code} for a frame the device could not read: ${message}`
      : `${plural(group.length, 'message')} refused with ${code}: ${message}`;
    return finding(
      'message-refused',
      device,
      context.index.client(remoteOfEntry(group[0])),
      line + sentOf(sent),
      group,
    );
  });
};

/** A refusal as `refused-repeated` compares them. */
type Refusal = Timed<HttpEntry | ConfigureEntry | MessageRefusedEntry>;

/** `refused-repeated`: the same refused request sent again, unchanged, more than `maxRefusedRepeats` times. */
export const refusedRepeated: Rule = (context) => {
  const { maxRefusedRepeats } = context.thresholds;
  const remoteOfEntry = sessionRemote(context);
  const refusals: Refusal[] = [
    ...context.index.ofKind('http').filter((h) => h.entry.error !== undefined),
    ...context.index.ofKind('configure').filter((c) => c.entry.error !== undefined),
    ...context.index.ofKind('message-refused'),
  ];
  const findings: Finding[] = [];
  for (const group of groupBy(refusals, (r) => sameRequestKey(r, remoteOfEntry)).values()) {
    group.sort((a, b) => a.entry.seq - b.entry.seq);
    const [first, ...repeats] = group;
    if (repeats.length <= maxRefusedRepeats) continue;
    const last = repeats[repeats.length - 1];
    const line =
      `${describeRefused(first)} refused with ${refusedCode(first)} was sent again ${plural(repeats.length, 'time')} ` +
      `within ${formatMs(last.at - first.at)} (at most ${maxRefusedRepeats} expected)${sentOf(sentBy(first))}`;
    const client = context.index.client(remoteOfEntry(first));
    findings.push(finding('refused-repeated', first.entry.device, client, line, [first, ...repeats]));
  }
  return findings;
};

/** The rules of this file by the ids they find (../grade joins the files' tables). */
export const REFUSAL_RULES = {
  'rpc-error': rpcError,
  'message-refused': messageRefused,
  'refused-repeated': refusedRepeated,
} satisfies RuleTable;

/** JSON-RPC errors that are the client's: 2xxx (a 1xxx is the device's own), but 2100, which has its own rule. */
function isClientsError(code: number): boolean {
  return code >= 2000 && code !== RpcErrorCode.VERSION_NOT_SUPPORTED;
}

/** The CGI method of a request, its path (without the query) and JSON-RPC method: `/axis-cgi/featureflag.cgi set`. */
export function callOf(entry: HttpEntry): string {
  return entry.call === undefined ? pathOf(entry.path) : `${pathOf(entry.path)} ${entry.call}`;
}

/** The JSON-RPC error code of an answer, to group the answers of one call by it. */
function code(h: Timed<HttpEntry>): number | undefined {
  return h.entry.error?.code;
}

/** `; sent: {...}` with the start of what a request sent, when the journal kept it. */
function sentOf(sent: BodyExcerpt | undefined): string {
  if (sent === undefined) return '';
  const text = sent.text.length > SENT_IN_MESSAGE ? `${sent.text.slice(0, SENT_IN_MESSAGE)}…` : sent.text;
  return `; sent (${plural(sent.bytes, 'byte')}): ${text}`;
}

/** The remote of a stream entry's session, or of an HTTP entry itself. */
function sessionRemote(context: GradingContext): (t: Refusal) => string {
  return ({ entry }) =>
    entry.kind === 'http'
      ? remoteOf(entry.remote)
      : (context.index.session(entry.device, entry.session)?.remote ?? remoteOf(undefined));
}

/** What makes two refusals the same request refused the same way: client, target, what was sent, the error. */
function sameRequestKey(r: Refusal, remoteOfEntry: (t: Refusal) => string): string {
  const { entry } = r;
  const who = `${entry.device} ${remoteOfEntry(r)}`;
  if (entry.kind === 'http')
    return `${who} http ${entry.method} ${entry.path} ${entry.call} ${entry.error?.code} ${excerptKey(entry.body)}`;
  if (entry.kind === 'configure') return `${who} configure ${JSON.stringify(entry.filters)} ${entry.error?.code}`;
  return `${who} message ${entry.code} ${entry.binary} ${entry.closed ? entry.message : excerptKey(entry.sent)}`;
}

/** An excerpt as a key: two sends are the same when their size and kept text are. */
function excerptKey(sent: BodyExcerpt | undefined): string {
  return sent === undefined ? '-' : `${sent.bytes}:${sent.text}`;
}

/** The code a refusal was answered with: the stream's close or refusal code, else the JSON-RPC error's. */
function refusedCode(r: Refusal): number | undefined {
  return r.entry.kind === 'message-refused' ? r.entry.code : r.entry.error?.code;
}

/** What the journal kept of what a refused request sent. */
function sentBy({ entry }: Refusal): BodyExcerpt | undefined {
  if (entry.kind === 'http') return entry.body;
  return entry.kind === 'message-refused' ? entry.sent : undefined;
}

/** The refused request in a few words. */
function describeRefused({ entry }: Refusal): string {
  if (entry.kind === 'http') return `${entry.method} ${callOf(entry)}`;
  if (entry.kind === 'configure') return `events:configure with ${JSON.stringify(entry.filters)}`;
  return `a ${entry.binary ? 'binary' : 'text'} message`;
}
