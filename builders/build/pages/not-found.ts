// 404.html: what static hosts (serve, Netlify, Cloudflare Pages, GitHub Pages) show for a missing page.
import type { Artifact, BuildContext } from '../artifact.ts';
import { API_INDEX, API_INDEX_LINK } from '../../contract/service.ts';
import { escapeHtml } from '../../render/html.ts';
import { PAGES, sitePath } from '../../contract/pages.ts';
import { frameOf, renderLayout } from './layout.ts';

export function renderNotFound(ctx: BuildContext): Artifact[] {
  const href = (path: string) => escapeHtml(sitePath(ctx.config.siteUrl, path));
  const main = `<h1>Page not found</h1>
<p>There is no page at this address. Try the <a href="${href(PAGES.home.path)}">home page</a>, the
<a href="${href(PAGES.writings.path)}">writings</a> or the <a href="${href(PAGES.developers.path)}">developer documentation</a>.</p>
<p>Looking for the API? The routes are listed at <a href="${href(API_INDEX_LINK)}"><code>${API_INDEX.path}</code></a>.</p>`;
  return [
    {
      file: '404.html',
      body: renderLayout({
        ...frameOf(ctx),
        page: null,
        title: 'Page not found',
        description: 'There is no page at this address.',
        main,
      }),
    },
  ];
}
