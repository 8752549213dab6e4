/**
 * The dashboard's start: reads the device's facts, fills each panel, then asks whether the
 * control API answers (its panels wait for that); the live feed runs while it does. A panel
 * that fails on a feed event is said at the top of the page (#page-notice); the others go on.
 */
import { ControlApi } from './control.js';
import { mountControlStatus } from './control-status.js';
import { fetchDeviceInfo } from './device-info.js';
import { byId, say } from './dom.js';
import { mountEventsPanel } from './events-panel.js';
import { mountFaultsPanel } from './faults-panel.js';
import { Feed } from './feed.js';
import { mountFlagsPanel } from './flags-panel.js';
import { mountFleetPicker } from './fleet-picker.js';
import { messageOf } from './format.js';
import { mountIdentityPanel } from './identity-panel.js';
import { mountJournalPanel } from './journal-panel.js';
import type { PanelContext } from './panel.js';
import { mountPublishPanel } from './publish-panel.js';
import { mountReportPanel } from './report-panel.js';
import { mountSessionsPanel } from './sessions-panel.js';

async function start(): Promise<void> {
  const info = await fetchDeviceInfo();
  document.title = `${info.serial} · bwc-emu dashboard`;
  byId('device-serial').textContent = info.serial;
  const control = new ControlApi(info.control);
  const feed = new Feed(control, (event, err) => {
    console.error(`dashboard: a panel failed on the feed's ${event} event`, err);
    say(byId('page-notice'), `A panel failed on the live feed's ${event} event (${messageOf(err)}); the rest goes on.`);
  });
  const ctx: PanelContext = { info, control, feed };
  control.watch((state) => (state.kind === 'ok' ? feed.start() : feed.stop()));
  mountControlStatus(byId('control-status'), ctx);
  mountFleetPicker(byId('fleet-picker'), ctx);
  mountIdentityPanel(byId('identity-panel'), ctx);
  mountFlagsPanel(byId('flags-panel'), ctx);
  mountEventsPanel(byId('events-panel'), ctx);
  mountPublishPanel(byId('publish-panel'), ctx);
  mountSessionsPanel(byId('sessions-panel'), ctx);
  mountFaultsPanel(byId('faults-panel'), ctx);
  mountJournalPanel(byId('journal-panel'), ctx);
  mountReportPanel(byId('report-panel'), ctx);
  await control.check();
  document.body.dataset.ready = 'true';
}

start().catch((err: unknown) => say(byId('page-error'), `The dashboard could not start: ${messageOf(err)}`));
