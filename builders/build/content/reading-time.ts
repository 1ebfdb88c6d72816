// A writing's length as its page shows it: its words and the minutes they take to read (docs/site.md#a-writings-page).
import { decodeHTML } from 'entities';

/** The reading speed the site assumes, in words a minute: a writing reads in words / 230 minutes, rounded up. */
export const WORDS_PER_MINUTE = 230;

/** Elements that run inside a line of text: their tags join what is on either side (`<em>re</em>read` is one word). */
const INLINE = /^<\/?(?:a|abbr|b|cite|code|del|em|i|ins|kbd|mark|q|s|samp|small|span|strong|sub|sup|u|var)\b/i;

/**
 * The text a reader sees of `html` (sanitized content HTML, whose attribute values hold no `>`): an inline
 * element's tags dropped, any other tag (a paragraph, a cell, a line break) a blank, character references decoded.
 * Code is text like any other; an image's alt text is not.
 */
export function htmlText(html: string): string {
  return decodeHTML(html.replace(/<[^>]*>/g, (tag) => (INLINE.test(tag) ? '' : ' ')));
}

/**
 * How many words `text` holds: runs of non-blank characters with at least one letter or digit in them, so
 * that a dash, a bullet or a lone `=` of code is no word. A script written without spaces counts a run as one.
 */
export function countWords(text: string): number {
  let words = 0;
  for (const run of text.split(/\s+/)) if (/[\p{L}\p{N}]/u.test(run)) words++;
  return words;
}

/** The minutes `words` take to read: words / WORDS_PER_MINUTE, rounded up (one word is a minute, none is none). */
export function readingMinutes(words: number): number {
  return Math.ceil(words / WORDS_PER_MINUTE);
}

export interface ReadingTime {
  words: number;
  minutes: number;
}

/** The words and reading minutes of a writing rendered as `html`. */
export function readingTime(html: string): ReadingTime {
  const words = countWords(htmlText(html));
  return { words, minutes: readingMinutes(words) };
}
