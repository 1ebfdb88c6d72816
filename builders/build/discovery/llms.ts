// /llms.txt and /llms-full.txt (llmstxt.org): `# Title`, a `> summary`, then `## Section` blocks of
// `- [name](url): notes` lines, with the optional extras under `## Optional`. The links point at the
// Markdown twins. llms-full.txt is the convention's companion: the twins' Markdown in llms.txt order.
import type { Config } from '../../lib/config.ts';
import { API_INDEX_LINK, DISCOVERY, MCP_ENDPOINT, listPhrase, type ServiceTables } from '../../contract/service.ts';
import type { Dataset } from '../../datasets/dataset.ts';
import { dataTools } from '../../contract/mcp-tools.ts';
import type { Writing } from '../content/site-content.ts';
import { twinBody } from '../content/twins.ts';
import { RESUME_SCHEMA_VERSION } from '../content/resume.ts';
import { absoluteUrl, CONTENT_DOCUMENTS, PAGES, RESUME_DOCUMENT, type PageRef } from '../../contract/pages.ts';

export interface LlmsPage {
  page: PageRef;
  name: string;
  notes: string;
  /** The page's twin, front matter included. */
  markdown: string;
}

export interface LlmsInput {
  pages: LlmsPage[];
  writings: LlmsPage[];
  /** Markdown placed right under the summary of both files: the demo's simulated-data notice. */
  notice?: string;
  /** What the build publishes (builders/build/artifact.ts): the datasets named and the data routes linked. */
  datasets: readonly Dataset[];
  service: ServiceTables;
  /** The build publishes /resume.json (the owner has a résumé). */
  resume?: boolean;
}

const line = (name: string, url: string, notes: string) => `- [${name}](${url})${notes ? `: ${notes}` : ''}`;

export function llmsTxt(config: Config, input: LlmsInput): string {
  const url = (path: string) => absoluteUrl(config.siteUrl, path);
  const md = (p: LlmsPage) => line(p.name, url(`/${p.page.markdownFile}`), p.notes);
  const { service } = input;
  const datasetsPhrase = listPhrase(input.datasets.map((d) => d.prose(config).llms));
  return (
    [
      `# ${config.site.title}`,
      `> ${config.site.tagline}`,
      ...(input.notice ? [input.notice] : []),
      `Personal site of ${config.site.author} with a public, read-only JSON API (no authentication) that feeds its portfolio preview: ` +
        `${datasetsPhrase}. ` +
        'Every page below is linked as its Markdown twin; the HTML page is the same URL without `.md`.',
      `## Pages\n\n${input.pages.map(md).join('\n')}`,
      `## Writings\n\n${input.writings.length ? input.writings.map(md).join('\n') : 'Nothing published yet.'}`,
      '## API\n\n' +
        [
          line(
            'API index',
            url(API_INDEX_LINK),
            'JSON index of the data routes, their documentation and the authentication policy',
          ),
          line(
            'OpenAPI 3.1 contract',
            url(DISCOVERY.openapi.path),
            'every operation, schema, header and problem response',
          ),
          line('API catalog', url(DISCOVERY.apiCatalog.path), 'RFC 9727 linkset of the endpoints'),
          line(
            'Status',
            url(DISCOVERY.status.path),
            `when the site was built, each dataset's state and age, the next scheduled run; as a shields.io badge: ${url(DISCOVERY.statusBadge.path)}`,
          ),
          ...service.resources.map((r) => line(r.title, url(r.v1.path), `${r.summary} Alias: ${url(r.alias.path)}`)),
          line(
            'MCP endpoint (gateway only)',
            url(MCP_ENDPOINT.path),
            `Model Context Protocol, Streamable HTTP, stateless; tools ${dataTools(service)
              .map((t) => t.name)
              .join(', ')} return the payloads above. A static host has no /mcp`,
          ),
        ].join('\n'),
      '## Optional\n\n' +
        [
          line('Full text', url(DISCOVERY.llmsFull.path), 'every page above in one Markdown file'),
          line('Writings feed', url(CONTENT_DOCUMENTS.feed.path), 'JSON Feed 1.1, full text of every writing'),
          line('Writings feed (Atom)', url(CONTENT_DOCUMENTS.atom.path), 'the same entries as Atom'),
          line('Profile (JSON)', url(CONTENT_DOCUMENTS.profile.path), 'name, tagline, location, about and links'),
          line('Skills (JSON)', url(CONTENT_DOCUMENTS.skills.path), 'skills by area'),
          ...(input.resume
            ? [
                line(
                  'Résumé (JSON Resume)',
                  url(RESUME_DOCUMENT.path),
                  `the résumé as a JSON Resume ${RESUME_SCHEMA_VERSION} document`,
                ),
              ]
            : []),
          line('Command-line tool', url(DISCOVERY.cli.path), 'read-only Node.js script: node cli.mjs --help'),
          line('Sitemap', url(DISCOVERY.sitemap.path), 'the published HTML pages'),
        ].join('\n'),
    ].join('\n\n') + '\n'
  );
}

export function llmsFullTxt(config: Config, input: LlmsInput): string {
  const sections = [...input.pages, ...input.writings].map(
    (p) => `<!-- ${absoluteUrl(config.siteUrl, p.page.path)} -->\n\n${twinBody(p.markdown)}`,
  );
  const notice = input.notice ? `${input.notice}\n\n` : '';
  return `# ${config.site.title}\n\n> ${config.site.tagline}\n\n${notice}${sections.join('\n\n---\n\n')}\n`;
}

export function writingEntry(w: Writing, markdown: string): LlmsPage {
  return { page: PAGES.writing(w.slug), name: w.title, notes: `${w.date}: ${w.summary}`, markdown };
}
