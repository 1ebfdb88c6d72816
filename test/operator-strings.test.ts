// Operator and upstream strings are text in every page and document (issue #12): a MARKET_SOURCE_NAME
// holding HTML and Markdown shows as those characters, never as markup.
import { Marked } from 'marked';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownText } from '../builders/build/content/markdown.ts';
import { buildSite, type BuiltSite } from './helpers/site-dist.ts';

const HOSTILE = '<img src=x onerror=alert(1)> <b>EVIL</b> [click](javascript:alert(1)) **BOLDX** `CODEX` &amp; |';

let site: BuiltSite;
beforeAll(async () => {
  site = await buildSite({ env: { MARKET_SOURCE_NAME: HOSTILE } });
  expect(site.result.code, site.result.stderr).toBe(0);
});
afterAll(() => site?.close());

const MARKUP = /<img src=x|<b>EVIL|href="javascript|<strong>BOLDX|<code>CODEX/;

describe('MARKET_SOURCE_NAME', () => {
  it('is text on the developer page and on the home page', async () => {
    for (const page of ['developers.html', 'index.html']) {
      const html = await site.read(page);
      expect(html, page).not.toMatch(MARKUP);
      expect(html, page).toContain('&lt;img src=x onerror=alert(1)&gt; &lt;b&gt;EVIL&lt;/b&gt;');
    }
  });

  it('is text in the Markdown twin and in the OpenAPI description (CommonMark), rendered or not', async () => {
    const md = await site.read('developers.md');
    const openapi = (await site.json<{ info: { description: string } }>('openapi.json')).info.description;
    for (const text of [md, openapi]) {
      expect(text).toContain(markdownText(HOSTILE));
      const rendered = new Marked().parse(text, { async: false });
      expect(rendered).not.toMatch(MARKUP);
      expect(rendered).toContain('[click](javascript:alert(1)) **BOLDX** `CODEX` &amp;amp; |');
    }
  });

  it('is the exact string in the market snapshot', async () => {
    expect((await site.json('api/v1/mon-price')).source).toBe(HOSTILE);
  });
});
