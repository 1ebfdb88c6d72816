// The access log: one JSON line per request on stdout. Lines are batched and written once per turn of
// the event loop, so a busy gateway makes one write call for many requests rather than one each.
// It records no client address, no header values and no query string: nothing that could carry a
// token or a forwarded address chain.
import type { QuotaOutcome } from './quota/quota.ts';

export interface AccessRecord {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  /** Quota outcome on the data routes; "-" elsewhere. */
  quota: QuotaOutcome | '-';
  /** True when the client went away before the response was complete. */
  aborted?: boolean;
}

/** Longer paths are cut in the log (the gateway never serves one that long anyway). */
const MAX_LOGGED_PATH = 256;

export interface AccessLog {
  record(entry: AccessRecord): void;
  flush(): void;
}

export function accessLog(write: (chunk: string) => void, clock: () => number = Date.now): AccessLog {
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    write(chunk);
  };
  return {
    record(entry) {
      const line = {
        time: new Date(clock()).toISOString(),
        method: entry.method.length > 32 ? entry.method.slice(0, 32) : entry.method,
        path: entry.path.length > MAX_LOGGED_PATH ? `${entry.path.slice(0, MAX_LOGGED_PATH)}…` : entry.path,
        status: entry.status,
        durationMs: Math.round(entry.durationMs * 100) / 100,
        quota: entry.quota,
        ...(entry.aborted ? { aborted: true } : {}),
      };
      pending.push(`${JSON.stringify(line)}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
