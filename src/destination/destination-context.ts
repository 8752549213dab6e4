/** What every route of the destination shares: options, store, tokens, rules, log. */
import type { LoginThrottle } from '../auth/login-throttle';
import type { Logger } from '../base/log';
import type { LogSummary } from '../base/log-summary';
import { RESERVED_CONTAINERS } from '../protocol/body-worn';
import { isActive, type Registry, type RulePolicy } from './body-worn-rules';
import type { ResolvedDestinationOptions } from './destination-options';
import type { FaultInjector } from './faults';
import type { ObjectStore } from './store/object-store';
import type { RecordingLog } from './recordings';
import type { SwiftTokens } from './swift-tokens';

/** The destination's parts, handed to its routes. */
export interface DestinationContext {
  options: ResolvedDestinationOptions;
  store: ObjectStore;
  tokens: SwiftTokens;
  /** Wrong keys at `/auth/v1.0`, per remote address and per address and login: past the limit, 429. */
  loginThrottle: LoginThrottle;
  /** Refused logins at `/auth/v1.0`: a few logged one by one per interval, the rest summarised. */
  loginLog: LogSummary;
  faults: FaultInjector;
  recordings: RecordingLog;
  log: Logger;
  scheme: 'http' | 'https';
}

/** Who is asking a storage route, once its guards (token, account, permission) have passed. */
export interface Caller {
  account: string;
  user: string;
}

/** Users and cameras registered in an account, as the body worn rules see them. */
export function registryOf(ctx: DestinationContext, account: string): Registry {
  const { store } = ctx;
  const lookup = (container: string, name: string) =>
    store.container(account, container) ? store.object(account, container, name)?.metadata : undefined;
  return {
    user: (id) => lookup(RESERVED_CONTAINERS.users, id),
    device: (serial) => lookup(RESERVED_CONTAINERS.devices, serial),
    activeCount: (kind) => {
      const container = kind === 'users' ? RESERVED_CONTAINERS.users : RESERVED_CONTAINERS.devices;
      if (!store.container(account, container)) return 0;
      return store.objects(account, container).filter((o) => isActive(o.metadata)).length;
    },
  };
}

/** The rules' limits at this moment. */
export function policyOf(ctx: DestinationContext): RulePolicy {
  return {
    licences: ctx.options.licences,
    now: ctx.options.clock.now(),
    earliest: Date.UTC(2000, 0, 1),
    maxAheadMs: ctx.options.maxAheadMs,
  };
}
