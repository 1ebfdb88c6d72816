// What HTML the site's content may carry into a page or a feed. Markdown passes raw HTML through, and the
// owner's words arrive by a push that no one reviews; GitHub Pages, the host this project recommends, sends
// no Content-Security-Policy header. So the HTML that Markdown yields is cut down to an allow-list of
// elements and attributes by a maintained sanitizer (sanitize-html, on the same htmlparser2 the build
// already uses) before it is published: no script in any form (elements, event handlers, `javascript:`,
// `data:` or `vbscript:` URLs, SVG or MathML, styles), no frames, objects, forms or <base>. What is dropped
// is listed in docs/site.md#what-content-may-contain; the page's policy (builders/contract/content-security-policy.ts)
// is the second wall, not the first.
import { decodeHTML } from 'entities';
import sanitizeHtml from 'sanitize-html';
import { TOKEN_CLASSES } from './highlight.ts';
import { HEADING_LINK } from './heading-link.ts';

/**
 * The URL schemes a link in the content may use; any other (`javascript:`, `data:`, `vbscript:`, `file:`...)
 * loses its href. A URL without a scheme (`/writings`, `#section`, `notes.html`) is relative and stays.
 */
export const LINK_SCHEMES = ['http', 'https', 'mailto'] as const;
/** An image is fetched by the page: http(s) only (a `data:` image could be an SVG document). */
export const IMAGE_SCHEMES = ['http', 'https'] as const;

/** Elements whose text is dropped with them, not kept as text: code, styles, embedded documents. */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'iframe',
  'object',
  'svg',
  'math',
  'textarea',
  'select',
  'option',
  'title',
];

const ALIGN_CLASSES = ['align-left', 'align-center', 'align-right'];

const OPTIONS: sanitizeHtml.IOptions = {
  // What GitHub-flavoured Markdown makes, and the inline HTML a writing may reasonably use.
  allowedTags: [
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'pre',
    'code',
    'hr',
    'br',
    'a',
    'em',
    'strong',
    'del',
    's',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'kbd',
    'samp',
    'var',
    'abbr',
    'cite',
    'q',
    'span',
    'div',
    'img',
    'figure',
    'figcaption',
    'details',
    'summary',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    // A GFM task list's box, forced to a disabled checkbox below.
    'input',
  ],
  allowedAttributes: {
    // A heading's link to itself names its section (heading-link.ts).
    a: ['href', 'title', 'class', 'aria-label'],
    div: ['class'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    // Headings carry the ids of their sections (markdown.ts); a code block is focusable to scroll.
    h1: ['id'],
    h2: ['id'],
    h3: ['id'],
    h4: ['id'],
    h5: ['id'],
    h6: ['id'],
    pre: ['tabindex'],
    code: ['class'],
    // A highlighted block's tokens (highlight.ts); their classes only, below.
    span: ['class'],
    ol: ['start', 'reversed'],
    th: ['scope', 'class', 'colspan', 'rowspan'],
    td: ['data-label', 'class', 'colspan', 'rowspan'],
    abbr: ['title'],
    blockquote: ['cite'],
    q: ['cite'],
    details: ['open'],
    input: ['type', 'checked', 'disabled'],
  },
  // markdown.ts' tables stack on a phone; the cells' alignment; a code block's language, and its
  // highlighting; a heading's link.
  allowedClasses: {
    table: ['stack'],
    th: ALIGN_CLASSES,
    td: ALIGN_CLASSES,
    code: ['language-*', 'hljs'],
    span: [...TOKEN_CLASSES],
    div: [HEADING_LINK.wrapperClass],
    a: [HEADING_LINK.linkClass],
  },
  allowedSchemes: [...LINK_SCHEMES],
  allowedSchemesByTag: { img: [...IMAGE_SCHEMES] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: true,
  // A style attribute would need the parser sanitize-html brings for it; none is allowed.
  parseStyleAttributes: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  transformTags: {
    // Only ever a box that shows a task's state, never a field that takes input (any other goes below).
    input: (_tag, attribs) => ({
      tagName: 'input',
      attribs: {
        type: (attribs.type ?? '').toLowerCase(),
        disabled: '',
        ...(attribs.checked !== undefined ? { checked: '' } : {}),
      },
    }),
  },
  exclusiveFilter: (frame) =>
    // An image whose source was dropped shows nothing and is not valid HTML: it goes whole.
    (frame.tag === 'img' && !frame.attribs.src) ||
    (frame.tag === 'input' && frame.attribs.type !== 'checkbox') ||
    // A link that lost its href keeps its text, unless that text is the refused URL itself (`<javascript:…>`).
    (frame.tag === 'a' && frame.attribs.href === undefined && isScriptUrlText(frame.text)),
};

/**
 * Whether `text` reads as a URL of a scheme that runs or embeds code (`javascript:`, `vbscript:`, `data:`),
 * blanks, controls and character references aside: the text of a link whose href was refused, which is
 * then dropped too rather than shown as a URL someone might paste.
 */
export function isScriptUrlText(text: string): boolean {
  return /^(?:javascript|vbscript|data):/i.test(decodeHTML(text).replace(/[\u0000-\u0020\u007f]+/g, ''));
}

/** `html` (what Markdown made of the owner's text) with only what the allow-list above keeps. */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/**
 * Whether a link of the content may be published: a relative URL, or an absolute one of `schemes`. Parsed
 * as a browser parses it (WHATWG URL: tabs and newlines inside dropped, leading and trailing blanks and
 * controls trimmed, the scheme case-folded), both as written and with its character references decoded,
 * as Markdown and HTML decode them (`&#106;avascript:` is `javascript:` to a Markdown renderer).
 */
export function isPublishableLink(url: string, schemes: readonly string[] = LINK_SCHEMES): boolean {
  return [url, decodeHTML(url)].every((form) => {
    let parsed: URL;
    try {
      // A relative URL takes the placeholder's scheme, https.
      parsed = new URL(form, 'https://relative.invalid/');
    } catch {
      return false;
    }
    return schemes.includes(parsed.protocol.slice(0, -1));
  });
}
