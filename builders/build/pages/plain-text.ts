// Markdown to plain text, for the readers of the site's content that show no HTML: a JSON Feed's
// `content_text`, the profile's `about` paragraphs and, through them, the command-line tool, which wraps
// this text and never parses Markdown. The layout (schemas/JsonFeed.schema.json, `content_text`): each
// paragraph, heading and list item on one line, list items marked "• " or "1. " (a nested list two
// spaces further in), quotes marked "> ", code lines indented by four spaces, blocks separated by one blank line. Links read `text <url>`, the
// delimiters RFC 3986 Appendix C recommends for a URL in plain text; a URL the pages would not link
// (a `javascript:` or `data:` one, content/sanitize.ts) is left out, its text kept.
import { Lexer, type Token, type Tokens } from 'marked';
import { IMAGE_SCHEMES, isPublishableLink, isScriptUrlText } from '../content/sanitize.ts';

/** `text <url>`, or the text alone when the URL is not one to publish (nothing, when the text is that URL). */
function withUrl(text: string, url: string, schemes?: readonly string[]): string {
  if (!isPublishableLink(url, schemes)) return isScriptUrlText(text) ? '' : text;
  return text === '' || text === url ? `<${url}>` : `${text} <${url}>`;
}

/** Inline tokens as text: markers dropped, links and images as `text <url>`, raw HTML tags removed. */
function inline(tokens: readonly Token[] | undefined): string {
  return (tokens ?? [])
    .map((t): string => {
      switch (t.type) {
        case 'link': {
          const link = t as Tokens.Link;
          return withUrl(inline(link.tokens), link.href);
        }
        case 'image': {
          const image = t as Tokens.Image;
          return withUrl(image.text, image.href, IMAGE_SCHEMES);
        }
        case 'codespan':
          return decode((t as Tokens.Codespan).text);
        case 'br':
          return ' ';
        case 'html':
          return '';
        case 'escape':
        case 'text':
          return 'tokens' in t && t.tokens ? inline(t.tokens) : decode(t.text as string);
        default:
          return 'tokens' in t && t.tokens ? inline(t.tokens) : decode(String((t as { text?: unknown }).text ?? ''));
      }
    })
    .join('');
}

/** marked leaves the five HTML escapes of inline text encoded; plain text wants the characters. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

function blocks(tokens: readonly Token[], out: string[]): void {
  for (const t of tokens) {
    switch (t.type) {
      case 'space':
      case 'def':
        break;
      case 'heading':
      case 'paragraph':
        out.push(oneLine(inline((t as Tokens.Heading | Tokens.Paragraph).tokens)));
        break;
      case 'text':
        out.push(oneLine(inline((t as Tokens.Text).tokens ?? [t])));
        break;
      case 'code':
        out.push(
          (t as Tokens.Code).text
            .split('\n')
            .map((line) => (line === '' ? '' : `    ${line}`))
            .join('\n'),
        );
        break;
      case 'blockquote': {
        const inner: string[] = [];
        blocks((t as Tokens.Blockquote).tokens, inner);
        out.push(inner.map((b) => `> ${oneLine(b)}`).join('\n'));
        break;
      }
      case 'list': {
        const list = t as Tokens.List;
        const start = typeof list.start === 'number' ? list.start : 1;
        out.push(
          list.items
            .map((item, i) => {
              // The item's own text on its line; a nested list on the lines below, two spaces in.
              const text: string[] = [];
              const nested: string[] = [];
              for (const part of item.tokens) blocks([part], part.type === 'list' ? nested : text);
              const lines = nested.flatMap((b) => b.split('\n')).map((line) => `  ${line}`);
              return [`${list.ordered ? `${start + i}.` : '•'} ${oneLine(text.join(' '))}`, ...lines].join('\n');
            })
            .join('\n'),
        );
        break;
      }
      case 'table': {
        const table = t as Tokens.Table;
        const row = (cells: Tokens.TableCell[]) => `    ${cells.map((c) => oneLine(inline(c.tokens))).join(' | ')}`;
        out.push([row(table.header), ...table.rows.map(row)].join('\n'));
        break;
      }
      case 'hr':
        out.push('    ----');
        break;
      case 'html':
        break;
      default:
        if ('tokens' in t && t.tokens) blocks(t.tokens, out);
    }
  }
}

/** A Markdown body as plain text in the layout above, without a trailing newline. */
export function markdownToText(markdown: string): string {
  const out: string[] = [];
  blocks(new Lexer({ gfm: true }).lex(markdown), out);
  return out.filter((b) => b !== '').join('\n\n');
}

/** The paragraphs of a Markdown text, one plain-text string each (the profile's About section). */
export function markdownParagraphs(markdown: string): string[] {
  return markdownToText(markdown).split('\n\n');
}
