/**
 * The grading report (`GET /_emu/report`): what the client under test did wrong, each finding
 * with its fix. Read on Refresh and every 5 s while the tab is visible.
 */
import { fill, h, say } from './dom.js';
import { messageOf } from './format.js';
import { controlNotice, errorLine, type PanelContext } from './panel.js';
import type { Finding, Report } from './types.js';

const REFRESH_MS = 5000;

/** Fills the report panel `root`. */
export function mountReportPanel(root: HTMLElement, ctx: PanelContext): void {
  const summary = h('p', { id: 'report-summary', class: 'summary', role: 'status' }, 'No report yet.');
  const findings = h('ol', { id: 'report-findings', class: 'findings' });
  const error = errorLine('report-error');
  let loading = false;

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
    if (loading || ctx.control.state.kind !== 'ok') return;
    loading = true;
    try {
      show(await ctx.control.call<Report>('GET', '/report'));
      say(error, '');
    } catch (err) {
      say(error, `Report: ${messageOf(err)}`);
    } finally {
      loading = false;
    }
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
  window.setInterval(() => {
    if (document.visibilityState === 'visible') void load();
  }, REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void load();
  });
}

/** One finding: severity, rule, the client, what it did and how to fix it. */
function findingRow(finding: Finding): HTMLLIElement {
  return h(
    'li',
    { class: `finding severity-${finding.severity}`, 'data-rule': finding.rule },
    h('strong', {}, `${finding.severity}: ${finding.rule}`),
    ` (client ${finding.client.remote}${finding.client.users.length ? `, ${finding.client.users.join(', ')}` : ''})`,
    h('p', { class: 'message' }, finding.message),
    h('p', { class: 'fix' }, `Fix: ${finding.fix}`),
  );
}
