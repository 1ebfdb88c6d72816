// A section heading's link to itself, on a page that links its sections (a writing's: markdown.ts,
// MarkdownOptions.headingLinks). The sanitizer (sanitize.ts) lets exactly these classes through.

export const HEADING_LINK = { wrapperClass: 'heading', linkClass: 'anchor', label: 'Link to the section' } as const;

/**
 * `heading` (its `<hN id>` HTML) then a "#" link to `#id`, both in a `div.heading`. The link is beside the
 * heading, not in it, so that the heading's accessible name stays its own text (a screen reader's list of
 * headings reads no "link" in each); the link is named by the section's text, `inner` without its tags.
 */
export function linkedHeading(heading: string, id: string, inner: string): string {
  const name = inner.replace(/<[^>]*>/g, '').trim();
  const label = `${HEADING_LINK.label} \u201c${name}\u201d`.replace(/"/g, '&quot;');
  return `<div class="${HEADING_LINK.wrapperClass}">${heading}<a class="${HEADING_LINK.linkClass}" href="#${id}" aria-label="${label}">#</a></div>\n`;
}
