// The shared quota of the four data URLs (docs/data-rules.md, docs/api.md#limits): fixed windows aligned to the
// clock, one counter per client, counted before anything else is done. The counter lives in a store
// (in-process or Redis); a store that fails or is slower than the budget makes the request unaccounted.
import { policyHeader, rateLimitHeader } from '../../builders/contract/rate-limit-headers.ts';
import { CONSTANTS } from '../../builders/contract/service.ts';

export interface QuotaStore {
  /**
   * Adds one to `key` and returns the new count; the key may be forgotten after `ttlSeconds`.
   * A synchronous answer skips the budget timer (the in-process store).
   */
  increment(key: string, ttlSeconds: number): number | Promise<number>;
  close(): Promise<void>;
}

/**
 * A store's refusal that the store reports itself, once per outage (the Redis store's line when its
 * connection fails): the quota leaves it unreported rather than saying it again for every request.
 */
export class StoreUnavailable extends Error {
  override readonly name = 'StoreUnavailable';
}

/** What enforcement made of one request; the access log records `outcome`. */
export type QuotaOutcome =
  | 'off' // RATE_LIMIT_QUOTA unset
  | 'unidentified' // a trusted proxy sent no usable client address
  | 'unavailable' // the store failed or missed the budget
  | 'allowed'
  | 'limited';

export interface QuotaDecision {
  outcome: QuotaOutcome;
  /** RateLimit-Policy and RateLimit (and Retry-After when limited), when enforcement accounted for the request. */
  headers: string[] | undefined;
  /** When limited: the seconds until the window ends, the Retry-After value (for those who pass it on). */
  retryAfterSeconds?: number;
}

export interface QuotaSettings {
  quota: number;
  windowSeconds: number;
  store: QuotaStore;
  now: () => number;
  /** Prefix of store keys, so that several deployments can share one Redis. */
  keyPrefix?: string;
  budgetMs?: number;
  onUnavailable?: (reason: string) => void;
}

export interface Quota {
  check(client: string | null): QuotaDecision | Promise<QuotaDecision>;
}

const OFF: QuotaDecision = { outcome: 'off', headers: undefined };
const UNIDENTIFIED: QuotaDecision = { outcome: 'unidentified', headers: undefined };
const UNAVAILABLE: QuotaDecision = { outcome: 'unavailable', headers: undefined };

export const DISABLED_QUOTA: Quota = { check: () => OFF };

/** The fixed window of `nowMs`: its number (floor(unix_seconds / window)) and whole seconds to its end. */
export function fixedWindow(nowMs: number, windowSeconds: number): { number: number; secondsLeft: number } {
  const windowMs = windowSeconds * 1000;
  const number = Math.floor(nowMs / windowMs);
  // Rounded up: a client that waits `t` seconds must land in the next window, never at its last instant.
  return { number, secondsLeft: Math.ceil(((number + 1) * windowMs - nowMs) / 1000) };
}

export function createQuota(settings: QuotaSettings): Quota {
  const { quota, windowSeconds, store, now } = settings;
  const budgetMs = settings.budgetMs ?? CONSTANTS.quotaStoreBudgetMs;
  const prefix = settings.keyPrefix ?? `ratelimit:${CONSTANTS.rateLimitPolicyName}:`;
  const policy = policyHeader(quota, windowSeconds);
  // The key holds at most one window of counts; it outlives its window by a second of clock skew.
  const ttl = windowSeconds + 1;

  const decide = (count: number, secondsLeft: number): QuotaDecision => {
    const headers = ['RateLimit-Policy', policy, 'RateLimit', rateLimitHeader(Math.max(0, quota - count), secondsLeft)];
    if (count <= quota) return { outcome: 'allowed', headers };
    // RFC 9110 §10.2.3: Retry-After as delay-seconds.
    headers.push('Retry-After', String(secondsLeft));
    return { outcome: 'limited', headers, retryAfterSeconds: secondsLeft };
  };

  const unavailable = (error: unknown) => {
    if (!(error instanceof StoreUnavailable)) settings.onUnavailable?.(describe(error));
  };

  return {
    check(client) {
      if (client === null) return UNIDENTIFIED;
      const window = fixedWindow(now(), windowSeconds);
      let pending: number | Promise<number>;
      try {
        // {prefix+window} is a Redis Cluster hash tag: every key of one window lives in one slot, so one
        // script call can count a whole turn's decisions (docs/gateway.md).
        pending = store.increment(`{${prefix}${window.number}}:${client}`, ttl);
      } catch (error) {
        unavailable(error);
        return UNAVAILABLE;
      }
      if (typeof pending === 'number') return decide(pending, window.secondsLeft);
      return withinBudget(pending, budgetMs).then(
        (count) => decide(count, window.secondsLeft),
        (error: unknown) => {
          unavailable(error);
          return UNAVAILABLE;
        },
      );
    },
  };
}

class BudgetExceeded extends Error {
  override readonly name = 'BudgetExceeded';
}

function withinBudget<T>(pending: Promise<T>, budgetMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new BudgetExceeded(`no answer within ${budgetMs} ms`)), budgetMs);
    pending.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
