/**
 * The grading report (`GET /_emu/report`): what the client under test did wrong, each finding
 * with its fix. Read when the control API becomes usable, on Refresh (one pressed while a read
 * runs reads again after it), and when the journal moves for the grade: at most every 2 s after
 * a batch of the feed that can change it, only while the tab is shown (once more when it is
 * shown again, if it moved).
 */
import { fill, h, say, withCode } from './dom.js';
import { messageOf } from './format.js';
import { controlNotice, errorLine, type PanelContext, statusLine } from './panel.js';
import type { Finding } from './types.js';
import { onShown } from './visibility.js';
import type { FeedEvents, Report } from './wire-types.js';

/** How long after a journal batch the report is read again (batches meanwhile wait for the same read). */
const JOURNAL_DELAY_MS = 2000;

/** Fills the report panel `root`. */
export function mountReportPanel(root: HTMLElement, ctx: PanelContext): void {
  const summary = statusLine('report-summary', false, 'No report yet.');
  const findings = h('ol', { id: 'report-findings', class: 'findings' });
  const error = errorLine('report-error');
  let loading = false;
  /** Refresh was asked for while a read ran: read again after it. */
  let again = false;
  /** The journal moved while the tab was hidden. */
  let stale = false;
  let timer: number | undefined;

  const show = (report: Report): void => {
    const { errors, warnings, infos, expectationsBroken } = report.summary;
    const broken = report.expectations.filter((e) => e.status === 'broken');
    if (report.journal.entries === 0 && report.findings.length === 0) {
      summary.textContent = 'No report yet: the journal is empty (no client has talked to the device).';
    } else {
      summary.textContent =
        `${errors} errors, ${warnings} warnings, ${infos} notes, ${expectationsBroken} expectations broken ` +
        `(${report.journal.entries} journal entries graded at ${new Date(report.generatedAt).toLocaleTimeString()})`;
    }
    fill(
      findings,
      ...report.findings.map(findingRow),
      ...broken.map((e) =>
        h(
          'li',
          { class: 'finding severity-error', 'data-rule': 'expectation' },
          h('strong', {}, `expectation ${e.name}`),
          ` broken: ${e.that}${e.topic ? ` ${e.topic}` : ''}`,
        ),
      ),
    );
    if (report.findings.length === 0 && broken.length === 0 && report.journal.entries > 0)
      findings.append(h('li', { class: 'finding' }, 'No findings: nothing wrong so far.'));
  };
  const load = async (): Promise<void> => {
    if (ctx.control.state.kind !== 'ok') return;
    if (loading) {
      again = true;
      return;
    }
    loading = true;
    try {
      // The segment running now: what the device's clients did since the last reset (a live view, not the run's report).
      show(await ctx.control.call<Report>('GET', '/report?segments=current'));
      say(error, '');
    } catch (err) {
      say(error, `Report: ${messageOf(err)}`);
    } finally {
      loading = false;
      if (again) {
        again = false;
        void load();
      }
    }
  };
  const journalMoved = ({ entries, skipped, reset }: FeedEvents['journal']): void => {
    // The grader leaves the page's own entries (`via: 'dashboard'`, as its session's notifications) out:
    // a batch of only those changes nothing. One that left entries out (skipped) may have had the client's.
    if (!reset && skipped === 0 && !entries.some((e) => !('via' in e) || e.via === undefined)) return;
    if (document.visibilityState !== 'visible') {
      stale = true;
      return;
    }
    timer ??= window.setTimeout(() => {
      timer = undefined;
      void load();
    }, JOURNAL_DELAY_MS);
  };

  fill(
    root,
    h('h2', { id: 'report-heading' }, 'Client report'),
    controlNotice(ctx, 'report', () => void load()),
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'button', id: 'report-refresh', onclick: () => void load() }, 'Refresh'),
    ),
    summary,
    findings,
    error,
  );
  ctx.feed.on('journal', journalMoved);
  onShown(() => {
    if (!stale) return;
    stale = false;
    void load();
  });
}

/** One finding: severity, rule, the client, what it did and how to fix it (their `code` as <code>). */
function findingRow(finding: Finding): HTMLLIElement {
  return h(
    'li',
    { class: `finding severity-${finding.severity}`, 'data-rule': finding.rule },
    h('strong', {}, `${finding.severity}: ${finding.rule}`),
    ` (client ${finding.client.remote}${finding.client.users.length ? `, ${finding.client.users.join(', ')}` : ''})`,
    h('p', { class: 'message' }, ...withCode(finding.message)),
    h('p', { class: 'fix' }, 'Fix: ', ...withCode(finding.fix)),
  );
}
