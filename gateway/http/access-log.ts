// The access log: one JSON line per request on stdout. Lines are batched and written once per turn of
// the event loop, so a busy gateway makes one write call for many requests rather than one each.
// It records no client address, no header values and no query string: nothing that could carry a
// token or a forwarded address chain.
import type { QuotaOutcome } from '../core/quota.ts';

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

/** Characters a JSON string may hold as they are (RFC 8259 §7): printable ASCII but `"` and `\\`. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A JSON string literal; the common all-ASCII case without JSON.stringify's general path. */
const jsonString = (s: string) => (PLAIN_JSON.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * The line is assembled as text, field by field in the order an object literal would give: this runs
 * once per request, and an object plus JSON.stringify plus a Date per line was a measurable share of
 * the snapshot route's CPU. The time prefix is reused while the clock shows the same millisecond.
 */
export function accessLog(write: (chunk: string) => void, clock: () => number = Date.now): AccessLog {
  let pending = '';
  let scheduled = false;
  let prefixMs = Number.NaN;
  let prefix = '';
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    write(chunk);
  };
  return {
    record(entry) {
      const ms = clock();
      if (ms !== prefixMs) {
        prefixMs = ms;
        prefix = `{"time":"${new Date(ms).toISOString()}","method":`;
      }
      const method = entry.method.length > 32 ? entry.method.slice(0, 32) : entry.method;
      const path = entry.path.length > MAX_LOGGED_PATH ? `${entry.path.slice(0, MAX_LOGGED_PATH)}…` : entry.path;
      pending +=
        `${prefix}${jsonString(method)},"path":${jsonString(path)},"status":${entry.status},` +
        `"durationMs":${Math.round(entry.durationMs * 100) / 100},"quota":${jsonString(entry.quota)}` +
        `${entry.aborted ? ',"aborted":true' : ''}}\n`;
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
