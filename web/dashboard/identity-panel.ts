/**
 * Who the device is and how long it has been up; its scenario (name, state, position) with
 * play, pause and restart. The uptime counts from device.json's `startedAt` (read again after
 * a reboot the journal has, and without the control API every minute while the tab is shown);
 * the scenario follows the feed. A button that does not apply is `aria-disabled`, not
 * `disabled`, so the keyboard stays on it; all three wait while a command runs, until the feed
 * has the scenario's new state.
 */
import { fetchDeviceInfo } from './device-info.js';
import { fill, h, say } from './dom.js';
import { duration, messageOf } from './format.js';
import { controlNotice, errorLine, type PanelContext, setUsable, usable } from './panel.js';
import type { DashboardDeviceInfo, ScenarioStatus } from './wire-types.js';
import { everyWhileVisible } from './visibility.js';

/** How often device.json is read again without the control API (with it, the journal has each reboot). */
const REFRESH_MS = 60_000;
/** How long a command waits for the feed to bring the new state before the buttons are freed anyway. */
const COMMAND_WAIT_MS = 3000;

type Command = 'play' | 'pause' | 'restart';

/** Fills the identity panel `root`. */
export function mountIdentityPanel(root: HTMLElement, ctx: PanelContext): void {
  const serial = h('dd', { id: 'identity-serial' });
  const model = h('dd', { id: 'identity-model' });
  const firmware = h('dd', { id: 'identity-firmware' });
  const realm = h('dd', { id: 'identity-realm' });
  const uptime = h('dd', { id: 'identity-uptime' });
  let upBase = 0;
  let upRead = performance.now();

  const showInfo = (info: DashboardDeviceInfo): void => {
    serial.textContent = info.serial;
    model.textContent = `${info.identity.name} (${info.identity.model})`;
    firmware.textContent = info.identity.firmware;
    realm.textContent = info.realm;
    upBase = info.now - info.startedAt;
    upRead = performance.now();
  };
  const reread = (): void => {
    fetchDeviceInfo().then(showInfo, (err: unknown) => console.warn(messageOf(err)));
  };
  showInfo(ctx.info);

  const scenarioName = h('dd', { id: 'scenario-name' }, '—');
  const scenarioState = h('dd', { id: 'scenario-state' }, '—');
  const position = h('dd', { id: 'scenario-position' }, '—');
  const error = errorLine('scenario-error');
  let scenario: ScenarioStatus | undefined;
  let scenarioRead = performance.now();
  /** The command under way (its buttons wait), and its timeout. */
  let busy: number | undefined;

  const tick = (): void => {
    uptime.textContent = duration(upBase + performance.now() - upRead);
    if (!scenario) return;
    const moving = scenario.state === 'playing' ? (performance.now() - scenarioRead) * scenario.speed : 0;
    position.textContent =
      duration(scenario.positionMs + moving) + (scenario.speed !== 1 ? ` (speed ${scenario.speed})` : '');
  };
  const showButtons = (): void => {
    const state = busy === undefined ? scenario?.state : undefined;
    setUsable(buttons.play, state === 'paused' || state === 'finished');
    setUsable(buttons.pause, state === 'playing');
    setUsable(buttons.restart, state !== undefined);
  };
  const done = (): void => {
    window.clearTimeout(busy);
    busy = undefined;
    showButtons();
  };
  const showScenario = (status: ScenarioStatus): void => {
    scenario = status;
    scenarioRead = performance.now();
    scenarioName.textContent = status.name ?? '(unnamed)';
    scenarioState.textContent = status.state;
    done();
    tick();
  };
  const command = (what: Command): void => {
    if (busy !== undefined || !usable(buttons[what])) return;
    say(error, '');
    busy = window.setTimeout(done, COMMAND_WAIT_MS);
    showButtons();
    ctx.control.call('POST', `/scenario/${what}`).catch((err: unknown) => {
      say(error, `${what}: ${messageOf(err)}`);
      done();
    });
  };
  const button = (what: Command, label: string): HTMLButtonElement =>
    h(
      'button',
      { type: 'button', id: `scenario-${what}`, 'aria-disabled': 'true', onclick: () => command(what) },
      label,
    );
  const buttons = {
    play: button('play', 'Play'),
    pause: button('pause', 'Pause'),
    restart: button('restart', 'Restart'),
  };

  fill(
    root,
    h('h2', { id: 'identity-heading' }, 'Device'),
    facts(['Serial', serial], ['Model', model], ['Firmware', firmware], ['Realm', realm], ['Uptime', uptime]),
    h('h3', { id: 'scenario-heading' }, 'Scenario'),
    controlNotice(ctx, 'scenario'),
    facts(['Name', scenarioName], ['State', scenarioState], ['Position', position]),
    h(
      'div',
      { class: 'buttons', role: 'group', 'aria-labelledby': 'scenario-heading' },
      buttons.play,
      buttons.pause,
      buttons.restart,
    ),
    error,
  );
  ctx.feed.on('scenario', showScenario);
  ctx.feed.on('journal', ({ entries, skipped, reset }) => {
    // Entries the feed left out (a slow tab) may have held the reboot: read again to be sure.
    if (skipped > 0 || reset || entries.some((e) => e.kind === 'fault' && e.name === 'reboot' && e.state === 'end'))
      reread();
  });
  tick();
  everyWhileVisible(1000, tick);
  everyWhileVisible(REFRESH_MS, () => {
    // With the control API, the feed's journal says when the device rebooted (above): nothing to ask.
    if (ctx.control.state.kind !== 'ok') reread();
  });
}

/** A list of facts: each name and the element of its value. */
function facts(...rows: [string, HTMLElement][]): HTMLDListElement {
  return h('dl', { class: 'facts' }, ...rows.flatMap(([name, value]) => [h('dt', {}, name), value]));
}
