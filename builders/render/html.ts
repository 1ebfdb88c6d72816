// HTML escaping, shared by the build and the browser script (no Node imports here).

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and double-quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * An ISO date (with its time and "UTC" when it has them) or "as of" with the date after it: a phrase that
 * must not break across lines (a browser breaks "2025-11-29" after a hyphen, "as of" after "as").
 */
export const UNBROKEN_PHRASE = /(?:\bas of )?\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?(?: UTC)?)?|\bas of\b/g;

/** Elements whose text is left as it is: code, preformatted text, script, style, SVG, and what already holds. */
const VERBATIM = /^<(pre|code|script|style|svg|textarea|time|kbd|samp)\b/i;

/**
 * `html` with every UNBROKEN_PHRASE of its text wrapped in `<span class="nowrap">` (the stylesheet keeps it on
 * one line), never inside a tag, an attribute or a VERBATIM element. Its text content is unchanged.
 */
export function keepPhrasesWhole(html: string): string {
  let out = '';
  let at = 0;
  const tag = /<\/?([a-zA-Z][\w-]*)[^>]*>|<!--[\s\S]*?-->/g;
  let match: RegExpExecArray | null;
  const text = (from: number, to: number) =>
    html.slice(from, to).replace(UNBROKEN_PHRASE, (phrase) => `<span class="nowrap">${phrase}</span>`);
  while ((match = tag.exec(html)) !== null) {
    out += text(at, match.index);
    const verbatim = VERBATIM.exec(match[0]);
    if (verbatim && !match[0].endsWith('/>')) {
      // Up to its closing tag, as it is (these elements do not nest themselves in the pages).
      const close = new RegExp(`</${verbatim[1]}\\s*>`, 'i');
      const rest = close.exec(html.slice(tag.lastIndex));
      const end = rest === null ? html.length : tag.lastIndex + rest.index + rest[0].length;
      out += html.slice(match.index, end);
      at = tag.lastIndex = end;
      continue;
    }
    out += match[0];
    at = tag.lastIndex;
  }
  return out + text(at, html.length);
}
