// The access log: one JSON line per request on stdout, handed to the writer as it is recorded (the
// writer copies it into its buffer and writes in batches: gateway/http/log-writer.ts).
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
}

/** Characters a JSON string may hold as they are (RFC 8259 §7): printable ASCII but `"` and `\\`. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** A JSON string literal; the common all-ASCII case without JSON.stringify's general path. */
const jsonString = (s: string) => (PLAIN_JSON.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * The line is assembled as text, field by field in the order an object literal would give: this runs
 * once per request, and an object plus JSON.stringify plus a Date per line was a measurable share of
 * the snapshot route's CPU. Under load most lines repeat the previous one but for the time and the
 * duration, so the text around those is kept while it is the same: the time while the clock shows the
 * same millisecond, method, path and status together, quota and abort together.
 */
export function accessLog(write: (line: string) => void, clock: () => number = Date.now): AccessLog {
  let prefixMs = Number.NaN;
  let prefix = '';
  let method: string | undefined;
  let path: string | undefined;
  let status = -1;
  let middle = '';
  let quota: string | undefined;
  let aborted = false;
  let tail = '';
  return {
    record(entry) {
      const ms = clock();
      if (ms !== prefixMs) {
        prefixMs = ms;
        prefix = `{"time":"${new Date(ms).toISOString()}","method":`;
      }
      if (entry.method !== method || entry.path !== path || entry.status !== status) {
        ({ method, path, status } = entry);
        const m = method.length > 32 ? method.slice(0, 32) : method;
        const p = path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
        middle = `${jsonString(m)},"path":${jsonString(p)},"status":${status},"durationMs":`;
      }
      if (entry.quota !== quota || (entry.aborted === true) !== aborted) {
        quota = entry.quota;
        aborted = entry.aborted === true;
        tail = `,"quota":${jsonString(quota)}${aborted ? ',"aborted":true' : ''}}\n`;
      }
      write(`${prefix}${middle}${Math.round(entry.durationMs * 100) / 100}${tail}`);
    },
  };
}
