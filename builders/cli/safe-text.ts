// Text from the site is untrusted: the CLI reads whatever --base-url points at. A hostile document could
// carry terminal control sequences (clear the screen, rewrite earlier lines, OSC 8 links whose target
// differs from their text, OSC 52 writes to the clipboard...), so none of its characters may reach the
// terminal as a control. Pure: strings in, strings out.
import { INVISIBLE_FORMATTING } from '../lib/text/unicode.ts';

// ECMA-48 §5.6 control strings: OSC, DCS, SOS, PM and APC, 7-bit (ESC ] P X ^ _) or 8-bit (U+009D,
// U+0090, U+0098, U+009E, U+009F), ended by BEL (xterm's OSC terminator), ST (ESC \ or U+009C), or,
// unterminated, by the end of the line (a terminal would swallow the rest; a reader gets the text back).
const CONTROL_STRING =
  /(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?/g;
// ECMA-48 §5.4 control sequences: CSI (ESC [ or U+009B), parameter bytes 0x30-0x3F, intermediate bytes
// 0x20-0x2F, one final byte 0x40-0x7E.
const CONTROL_SEQUENCE = /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?/g;
// Any other escape sequence: ESC, intermediate bytes, one final byte (ESC c resets the terminal).
const ESCAPE_SEQUENCE = /\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;
// What is left of C0 (but tab and line feed), DEL and C1. A carriage return is dropped too: it would
// let a line overwrite itself; CRLF line ends become LF first.
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * `text` without any terminal control: whole escape sequences removed, then every other control
 * character and the invisible formatting characters (builders/lib/text/unicode.ts).
 */
export function printable(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(CONTROL_STRING, '')
    .replace(CONTROL_SEQUENCE, '')
    .replace(ESCAPE_SEQUENCE, '')
    .replace(CONTROL_CHARACTER, '')
    .replace(INVISIBLE_FORMATTING, '');
}

/** A parsed document with `printable` applied to every string in it, keys included; same shape. */
export function printableValue<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === 'string') return printable(value);
  if (Array.isArray(value)) return value.map(clean);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [printable(k), clean(v)]));
  return value;
}

/**
 * Characters JSON.stringify writes as they are but a terminal must not get raw: DEL and C1 (a terminal
 * may act on U+009B, CSI, like on ESC [), the invisible bidi and zero-width characters (builders/lib/text/unicode.ts:
 * they reorder or hide what the reader sees) and the Unicode line and paragraph separators.
 */
const RAW_IN_JSON = new RegExp(`[\\u007f-\\u009f\\u2028\\u2029]|${INVISIBLE_FORMATTING.source}`, 'g');

/**
 * `--json` output: the site's strings kept exactly, as JSON. JSON.stringify escapes C0 (RFC 8259 §7:
 * "the control characters (U+0000 through U+001F)" must be escaped); RAW_IN_JSON is written as \u
 * escapes too, which every JSON parser reads back as the same characters: the same value, safe to print.
 */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}
