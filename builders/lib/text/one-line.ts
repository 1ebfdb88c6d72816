// The one rule for putting outside text (an upstream's error message, a redirect target, a problem's
// detail, a file name) on one line of a log, an error message or stderr. Used by the build, the gateway
// and the CLI alike; the CLI first removes whole terminal escape sequences (builders/cli/safe-text.ts).
import { INVISIBLE_FORMATTING } from './unicode.ts';

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
 * `text` as one plain line of at most `max` characters: the invisible bidi characters are dropped
 * (builders/lib/text/unicode.ts), C0 and C1 controls (ESC sequences, BEL, CR/LF) and the Unicode line and paragraph
 * separators become spaces, whitespace runs collapse to one space, the ends are trimmed, and a longer
 * line is cut with "…", and credentials it echoes are redacted. One failure is always one line on a
 * terminal or in a log collector.
 */
export function oneLine(text: string, max: number): string {
  const plain = redactCredentials(text)
    .replace(INVISIBLE_FORMATTING, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
