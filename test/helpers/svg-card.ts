// The rules an embeddable SVG card must keep (issue 13, docs/api.md#published-paths), checked on its text without a
// browser: test/browser.test.ts parses the same files with Chromium's XML parser and renders them as <img>.

export interface CardViolation {
  rule: string;
  detail: string;
}

/** Every start tag with its name and attributes (an SVG card is plain XML: no CDATA, no comments expected). */
export function startTags(svg: string): Array<{ name: string; attributes: Map<string, string> }> {
  return [...svg.matchAll(/<([A-Za-z][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g)].map((m) => ({
    name: m[1]!,
    attributes: new Map(
      [...m[2]!.matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((a) => [a[1]!, a[2] ?? a[3]!]),
    ),
  }));
}

export function cardViolations(svg: string): CardViolation[] {
  const out: CardViolation[] = [];
  const tags = startTags(svg);
  const root = tags[0];
  if (!root || root.name !== 'svg') out.push({ rule: 'root', detail: 'the first element is not <svg>' });
  else {
    if (root.attributes.get('xmlns') !== 'http://www.w3.org/2000/svg')
      out.push({ rule: 'namespace', detail: 'root has no SVG xmlns' });
    for (const a of ['width', 'height', 'viewBox'])
      if (!root.attributes.has(a)) out.push({ rule: 'size', detail: `root has no ${a}` });
    const [, , w, h] = (root.attributes.get('viewBox') ?? '').split(/\s+/).map(Number);
    if (w !== Number(root.attributes.get('width')) || h !== Number(root.attributes.get('height')))
      out.push({ rule: 'size', detail: 'viewBox does not match width and height' });
  }
  if (!/<title[\s>]/.test(svg)) out.push({ rule: 'title', detail: 'no <title>' });
  if (!/<desc[\s>]/.test(svg)) out.push({ rule: 'desc', detail: 'no <desc>' });
  if (/<script/i.test(svg)) out.push({ rule: 'script', detail: 'a <script> element' });
  for (const name of ['foreignObject', 'iframe', 'image', 'use', 'a', 'style', 'font-face'])
    if (tags.some((t) => t.name === name)) out.push({ rule: 'element', detail: `a <${name}> element` });
  for (const tag of tags)
    for (const [name, value] of tag.attributes) {
      if (/^on/i.test(name)) out.push({ rule: 'event', detail: `<${tag.name} ${name}>` });
      if (/href$/i.test(name) && !value.startsWith('#'))
        out.push({ rule: 'href', detail: `<${tag.name} ${name}="${value}">` });
      if (/url\(\s*['"]?(?!#)/i.test(value)) out.push({ rule: 'url', detail: `<${tag.name} ${name}="${value}">` });
    }
  if (/@import|@font-face|javascript:/i.test(svg))
    out.push({ rule: 'external', detail: 'an import, font or javascript: URL' });
  // Every start tag must be matched by an end tag or be self-closing: a cheap well-formedness check.
  const opened = [...svg.matchAll(/<([A-Za-z][\w:.-]*)(?:\s[^>]*)?(?<!\/)>/g)].length;
  const closed = [...svg.matchAll(/<\/[A-Za-z][\w:.-]*\s*>/g)].length;
  if (opened !== closed) out.push({ rule: 'well-formed', detail: `${opened} open tags, ${closed} end tags` });
  return out;
}
