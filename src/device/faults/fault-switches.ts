/**
 * What each fault switch does to a device. A `state` switch's `on` returns the function that
 * switches it off again; an `action`'s `run` resolves when it is over (a reboot when the device is
 * back, a storm when it has blown). The catalogue (../../protocol/fault-catalogue) says
 * what each one is for.
 */
import { EmulatorError } from '../../base/errors';
import type { EventFaults } from '../../events/event-faults';
import { NEUTRAL_NAMESPACE, renameTopicPrefix } from '../../events/topic-filter';
import type { FaultKindOf, FaultName, FaultParams } from '../../protocol/fault-catalogue';
import type { FaultTarget } from './fault-target';

/** What switches a state switch off again. */
export type SwitchOff = () => void;

/** A state switch: on now, off with the returned function. */
export interface StateSwitch<N extends FaultName> {
  on(target: FaultTarget, params: FaultParams<N>): Promise<SwitchOff> | SwitchOff;
}
/** An action: resolves once done. */
export interface ActionSwitch<N extends FaultName> {
  run(target: FaultTarget, params: FaultParams<N>): Promise<void>;
}

/** Switch `N`'s implementation, its shape decided by the catalogue's kind, its parameters by its schema. */
export type FaultSwitch<N extends FaultName> = FaultKindOf<N> extends 'action' ? ActionSwitch<N> : StateSwitch<N>;

/**
 * Every switch's implementation, typed by the catalogue: a switch missing here, one the
 * catalogue does not have, the wrong kind or a parameter it does not declare is a compile error.
 */
export const FAULT_SWITCHES: { readonly [N in FaultName]: FaultSwitch<N> } = {
  stall: {
    on: (target, { pings }) => {
      target.events.stall = { pings };
      if (!pings) target.stream.holdSessions(true);
      return () => {
        target.events.stall = undefined;
        if (!pings) target.stream.holdSessions(false);
      };
    },
  },
  drop: {
    run: async (target, { mode, code, reason }) => {
      if (mode === 'reset') target.stream.resetSessions();
      else target.stream.closeSessions(code, reason);
      await Promise.resolve();
    },
  },
  reboot: {
    run: async (target, { downMs, refuseLoginsMs }) => {
      target.log.info({ downMs }, 'rebooting: port closed');
      // The sessions go first, as the device's own doing (the journal says by: device).
      target.stream.resetSessions();
      await target.listening.suspend((socket) => target.spares(socket));
      target.authenticator.renewNonceSecret();
      target.tokens.revokeAll();
      // The initial states are a fresh boot's, not changes: with stuck-states on they would be
      // swallowed (a state stuck before the reboot would vanish) or stick themselves. The
      // switch stays on, its stuck states forgotten with the rest.
      const stuck = target.events.stuckStates;
      target.events.stuckStates = undefined;
      try {
        target.restartStates();
      } finally {
        if (stuck) {
          stuck.clear();
          target.events.stuckStates = stuck;
        }
      }
      if (!(await target.wait(downMs))) return;
      await target.listening.resume();
      if (refuseLoginsMs > 0) target.authenticator.rejectFor(refuseLoginsMs);
      target.log.info('rebooted: listening again');
    },
  },
  digest: {
    on: (target, { nonceLifetimeMs, stale, nonceOnce }) => {
      target.authenticator.tuneDigest({ nonceLifetimeMs, stale, nonceOnce });
      return () => target.authenticator.tuneDigest(undefined);
    },
  },
  slots: {
    on: (target, { max, overflow, code, reason }) => eventFault(target, 'slots', { max, overflow, code, reason }),
  },
  'stuck-states': { on: (target) => eventFault(target, 'stuckStates', new Set()) },
  'no-initial-states': { on: (target) => eventFault(target, 'noInitialStates', true) },
  flap: {
    run: async (target, { topic, source, item, times, withinMs }) => {
      const start = target.clock.now();
      const step = times > 1 ? withinMs / (times - 1) : 0;
      // Published in one go with their timestamps spread over the span: what the client
      // receives is one burst of edges, as from a bouncing contact.
      for (let i = 0; i < times; i++) {
        const data = { [item]: i % 2 === 0 ? '1' : '0' };
        target.bus.publish(
          deviceTopic(target, topic),
          { source, data },
          { stateful: true, timestamp: start + Math.round(i * step) },
        );
      }
      await Promise.resolve();
    },
  },
  storm: {
    run: async (target, { topic, ratePerSecond, forMs }) => {
      // Paced by a counted number of timer ticks, not timed against the device clock: a device
      // on a ManualClock would storm until closed, and late timers would change the count.
      // It is exact: ratePerSecond * forMs / 1000 events (rounded), spread evenly over the ticks.
      const tickMs = 10;
      const ticks = Math.max(1, Math.ceil(forMs / tickMs));
      const total = Math.round((ratePerSecond * forMs) / 1000);
      let sent = 0;
      for (let tick = 1; tick <= ticks; tick++) {
        const due = tick === ticks ? total : Math.floor((total * tick) / ticks);
        while (sent < due) target.bus.publish(deviceTopic(target, topic), { data: { seq: String(sent++) } });
        if (tick < ticks && !(await target.wait(tickMs))) break;
      }
      target.log.info({ topic, sent }, 'event storm over');
    },
  },
  clock: {
    on: (target, { skewMs, missing, backwardsStepMs }) =>
      eventFault(target, 'clock', { skewMs, missing, backwardsStepMs }),
  },
  'no-websocket': { on: (target) => eventFault(target, 'noWebSocket', true) },
  cgi: {
    on: (target, { delayMs, status }) => {
      target.http.cgi = { delayMs, status };
      return () => (target.http.cgi = undefined);
    },
  },
  'tls-host': {
    on: async (target, { hostname }) => {
      const certificateFor = target.certificateFor;
      if (!certificateFor) throw new EmulatorError('BAD_FAULT', 'tls-host needs an HTTPS device (start it with --tls)');
      await certificateFor(hostname);
      return () => void certificateFor(undefined);
    },
  },
};

/** A state switch that is one field of the event system's faults: set while on, cleared after. */
function eventFault<K extends keyof EventFaults>(target: FaultTarget, key: K, value: EventFaults[K]): () => void {
  target.events[key] = value;
  return () => {
    target.events[key] = undefined;
  };
}

/** `topic` in the device's namespace: `tnsvendor:` written as its word, as scenarios are. */
function deviceTopic(target: FaultTarget, topic: string): string {
  return renameTopicPrefix(topic, NEUTRAL_NAMESPACE, target.namespace);
}
