/**
 * Who the device is and how long it has been up; its scenario (name, state, position) with
 * play, pause and restart. The uptime counts from device.json's `startedAt` (read again after
 * a reboot); the scenario follows the feed.
 */
import { fetchDeviceInfo } from './device-info.js';
import { fill, h, say } from './dom.js';
import { duration, messageOf } from './format.js';
import { controlNotice, errorLine, type PanelContext } from './panel.js';
import type { DeviceInfo, ScenarioStatus } from './types.js';

/** How often device.json is read again (the uptime after a reboot is also caught from the journal). */
const REFRESH_MS = 60_000;

/** Fills the identity panel `root`. */
export function mountIdentityPanel(root: HTMLElement, ctx: PanelContext): void {
  const serial = h('dd', { id: 'identity-serial' });
  const model = h('dd', { id: 'identity-model' });
  const firmware = h('dd', { id: 'identity-firmware' });
  const realm = h('dd', { id: 'identity-realm' });
  const uptime = h('dd', { id: 'identity-uptime' });
  let upBase = 0;
  let upRead = performance.now();

  const showInfo = (info: DeviceInfo): void => {
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

  const tick = (): void => {
    uptime.textContent = duration(upBase + performance.now() - upRead);
    if (!scenario) return;
    const moving = scenario.state === 'playing' ? (performance.now() - scenarioRead) * scenario.speed : 0;
    position.textContent =
      duration(scenario.positionMs + moving) + (scenario.speed !== 1 ? ` (speed ${scenario.speed})` : '');
  };
  const showScenario = (status: ScenarioStatus): void => {
    scenario = status;
    scenarioRead = performance.now();
    scenarioName.textContent = status.name ?? '(unnamed)';
    scenarioState.textContent = status.state;
    play.disabled = status.state === 'playing' || status.state === 'none';
    pause.disabled = status.state !== 'playing';
    restart.disabled = status.state === 'none';
    tick();
  };
  const load = (): void => {
    ctx.control
      .call<ScenarioStatus>('GET', '/scenario')
      .then(showScenario, (err: unknown) => say(error, `Scenario: ${messageOf(err)}`));
  };
  const command = (what: 'play' | 'pause' | 'restart'): void => {
    say(error, '');
    ctx.control
      .call('POST', `/scenario/${what}`)
      .then(load, (err: unknown) => say(error, `${what}: ${messageOf(err)}`));
  };
  const play = h('button', { type: 'button', id: 'scenario-play', onclick: () => command('play') }, 'Play');
  const pause = h('button', { type: 'button', id: 'scenario-pause', onclick: () => command('pause') }, 'Pause');
  const restart = h('button', { type: 'button', id: 'scenario-restart', onclick: () => command('restart') }, 'Restart');

  fill(
    root,
    h('h2', { id: 'identity-heading' }, 'Device'),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Serial'),
      serial,
      h('dt', {}, 'Model'),
      model,
      h('dt', {}, 'Firmware'),
      firmware,
      h('dt', {}, 'Realm'),
      realm,
      h('dt', {}, 'Uptime'),
      uptime,
    ),
    h('h3', { id: 'scenario-heading' }, 'Scenario'),
    controlNotice(ctx, 'scenario', load),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Name'),
      scenarioName,
      h('dt', {}, 'State'),
      scenarioState,
      h('dt', {}, 'Position'),
      position,
    ),
    h('div', { class: 'buttons', role: 'group', 'aria-labelledby': 'scenario-heading' }, play, pause, restart),
    error,
  );
  ctx.feed.on('scenario', showScenario);
  ctx.feed.on('journal', ({ entries }) => {
    if (entries.some((e) => e.kind === 'fault' && e.name === 'reboot' && e.state === 'end')) reread();
  });
  tick();
  window.setInterval(tick, 1000);
  window.setInterval(reread, REFRESH_MS);
}
