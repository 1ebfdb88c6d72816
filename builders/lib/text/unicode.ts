// Unicode's invisible formatting characters that change what a reader sees without being seen: the
// bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-F, U+202A-E, U+2066-9; the
// "Trojan Source" characters, CVE-2021-42574) and the zero-width space (U+200B), which hides a
// difference between two URLs or names that look the same. The zero-width (non-)joiners are not among
// them: scripts and emoji sequences need them. Every sanitiser of outside text (log lines, the CLI's
// output) drops these.
export const INVISIBLE_FORMATTING = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** C0 and C1 controls (DEL included): nothing an owner or operator means to show, and malformed in XML (cards). */
const CONTROL = '\\x00-\\x1f\\x7f-\\x9f';
/** The same, less the tab, line feed and carriage return a multi-line file is made of. */
const CONTROL_BUT_LINES = '\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f';
/** The invisible formatting characters above, plus the word joiner and the BOM. */
const INVISIBLE = `${INVISIBLE_FORMATTING.source.slice(1, -1)}\\u2060\\ufeff`;

const INVISIBLE_ALL = new RegExp(`[${INVISIBLE}]`, 'g');

/**
 * `text` without the invisible formatting characters above (the bidi controls, zero-width space, word
 * joiner, BOM): for upstream text at the edge where it enters (a repository's description), which is
 * published as it comes otherwise. The owner's text is refused instead (firstUnseen).
 */
export function withoutInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, '');
}

const UNSEEN_LINE = new RegExp(`[${CONTROL}${INVISIBLE}]`);
const UNSEEN_TEXT = new RegExp(`[${CONTROL_BUT_LINES}${INVISIBLE}]`);

/** A character the owner's words or an operator's value may not hold, where it is and what it is. */
export interface Unseen {
  index: number;
  /** `U+202E`. */
  code: string;
  kind: 'a control character' | 'an invisible formatting character';
}

/**
 * The one rule for text the owner or the operator writes (a variable, `site.json`, and every file of the
 * site's content): no C0 or C1 control (ESC, BEL, NEL...) and no invisible formatting character. In a
 * multi-line text (`multiline`), tabs and line breaks are its own. Null when the text is clean.
 */
export function firstUnseen(text: string, multiline = false): Unseen | null {
  const match = (multiline ? UNSEEN_TEXT : UNSEEN_LINE).exec(text);
  if (match === null) return null;
  const char = match[0];
  return {
    index: match.index,
    code: `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
    kind: new RegExp(`[${CONTROL}]`).test(char) ? 'a control character' : 'an invisible formatting character',
  };
}
