// Error values that carry their context until the edge (the build's main, the gateway's response writer).
import { oneLine } from './text/one-line.ts';

/** A variable or setting that cannot be used. The edge prints the message and exits with status 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
  }
}

/**
 * The upstream a failure came from, as its client names it (`coinbase`, `github-graphql`, a dataset's own):
 * the first word of the failure's line. Each client declares its name beside itself; no list here.
 */
export type UpstreamName = string;

/** Longest reason an UpstreamError keeps: enough for a URL and the upstream's own message. */
const MAX_REASON_LENGTH = 500;

/** An upstream gave no usable data: it was down, slow, refused, or answered in a shape we do not trust. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly upstream: UpstreamName,
    reason: string,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number; detail?: string },
  ) {
    // Reasons quote upstream text; it is sanitised here, where every such text enters a message.
    super(
      `${upstream}: ${oneLine(reason, MAX_REASON_LENGTH)}`,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
    this.detail = options?.detail;
  }
  readonly status: number | undefined;
  /** The upstream's own explanation (a JSON error body's `message`), as the reason quotes it. */
  readonly detail: string | undefined;
  /** How long the upstream asked us to wait (its Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
}

/** A GitHub page's 404 for `account`, with what the upstream said of it (the demo's provider says to restart it). */
export function accountNotFound(account: string, error: UpstreamError): string {
  return `account "${account}" not found (404)${error.detail === undefined ? '' : `: ${error.detail}`}`;
}

/**
 * A mistake in the site's own content (site/: profile.md, skills.yaml, writings/): the owner's to fix, not
 * a bug. `file` is the content file as the owner knows it (`writings/Bad..Name.md`); the message names it
 * and what to fix. The build's edge prints it in one line and exits with status 2, like a ConfigError.
 */
export class ContentError extends Error {
  override readonly name = 'ContentError';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    // A file name is the owner's text too: it may hold controls (builders/lib/text/one-line.ts).
    super(`${oneLine(file, 200)}: ${oneLine(reason, 500)}`);
  }
}
