// Error values that carry their context until the edge (the build's main, the gateway's response writer).
import { INVISIBLE_FORMATTING } from './unicode.ts';

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

export type UpstreamName = 'coinbase' | 'github-graphql' | 'github-html';

/** Longest reason an UpstreamError keeps: enough for a URL and the upstream's own message. */
const MAX_REASON_LENGTH = 500;

/**
 * Credentials an upstream may echo back (a GraphQL error quoting the request's Authorization header):
 * the value after `Bearer`/`Basic`, after `token` when it looks like one, and GitHub's token formats
 * (ghp_, gho_, ghu_, ghs_, ghr_, github_pat_). Each pattern is one pass over the text.
 */
const CREDENTIALS: Array<[RegExp, string]> = [
  [/\b(bearer|basic)(\s+)[\w.~+/-]+=*/gi, '$1$2[redacted]'],
  [/\b(token)(\s+)[\w.~+/-]{20,}=*/gi, '$1$2[redacted]'],
  [/\b(?:gh[opusr]_|github_pat_)\w+/g, '[redacted]'],
];

/** `text` with every credential found by CREDENTIALS replaced by "[redacted]": for every error line. */
export function redactCredentials(text: string): string {
  return CREDENTIALS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/**
 * Text from outside (an upstream's error message, a redirect target, a cell attribute) made safe for a
 * log line: invisible bidi characters are dropped, C0 and C1 controls (ESC sequences, BEL, CR/LF) become
 * spaces, whitespace runs collapse and the length is capped, so one failure is always one plain line on
 * a terminal or in a log collector; credentials it echoes are redacted.
 */
export function printable(text: string, max = MAX_REASON_LENGTH): string {
  const plain = redactCredentials(text)
    .replace(INVISIBLE_FORMATTING, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/** An upstream gave no usable data: it was down, slow, refused, or answered in a shape we do not trust. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly upstream: UpstreamName,
    reason: string,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number },
  ) {
    // Reasons quote upstream text; it is sanitised here, where every such text enters a message.
    super(`${upstream}: ${printable(reason)}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = options?.status;
    this.retryAfterMs = options?.retryAfterMs;
  }
  readonly status: number | undefined;
  /** How long the upstream asked us to wait (its Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
}
