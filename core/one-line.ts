// The one rule for putting outside text (an upstream's error message, a redirect target, a problem's
// detail, a file name) on one line of a log, an error message or stderr. Used by the build, the gateway
// and the CLI alike; the CLI first removes whole terminal escape sequences (cli/safe-text.ts).
import { INVISIBLE_FORMATTING } from './unicode.ts';

/**
 * `text` as one plain line of at most `max` characters: the invisible bidi characters are dropped
 * (core/unicode.ts), C0 and C1 controls (ESC sequences, BEL, CR/LF) and the Unicode line and paragraph
 * separators become spaces, whitespace runs collapse to one space, the ends are trimmed, and a longer
 * line is cut with "…". One failure is always one line on a terminal or in a log collector.
 */
export function oneLine(text: string, max: number): string {
  const plain = text
    .replace(INVISIBLE_FORMATTING, '')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}
