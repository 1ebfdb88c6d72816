// The one rule for putting outside text (an operator's or an upstream's string) into Markdown: shared by
// the pages, which render it, and the OpenAPI document, whose descriptions are CommonMark and which the
// gateway generates too (so the rule cannot live beside the Markdown renderer, a builder package).

/**
 * Text (an operator's or an upstream's string: MARKET_SOURCE_NAME, the site title) as Markdown that
 * renders as exactly that text: every character that could open HTML, an entity, a link, emphasis, code
 * or a table cell is backslash-escaped (CommonMark §2.4: any ASCII punctuation may be), and a line
 * break, which could start a new block, becomes a space.
 */
export function markdownText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_[\]<>&!#|~(){}]/g, (c) => `\\${c}`);
}

/**
 * A URL as a Markdown link destination that ends where it should: whitespace and the characters that
 * would close it or open another (`(`, `)`, `<`, `>`) percent-encoded, so that an owner's or an
 * upstream's URL holding `)[x](javascript:…)` stays one link to one address.
 */
export function markdownDestination(url: string): string {
  return url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** A Markdown link whose text renders as exactly `text` (markdownText) and whose target is `url`. */
export function markdownLink(text: string, url: string): string {
  return `[${markdownText(text)}](${markdownDestination(url)})`;
}
