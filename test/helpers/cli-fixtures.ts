// A hand-written site for the CLI tests: every document the CLI reads, with known values, in the shapes
// the site generator writes (the content documents of builders/contract/pages.ts, valid against their schemas; the
// API index and discovery documents at their builders/contract/service.ts files). It pins the reading to exact values
// whatever content the real build publishes.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CONTENT_DOCUMENTS } from '../../builders/contract/pages.ts';
import { API_INDEX, DISCOVERY } from '../../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';

export const FIXTURE_WRITINGS = [
  {
    slug: 'precomputed-json',
    title: 'Precomputed JSON beats a live API',
    date: '2026-10-30',
    published: '2026-10-30T00:00:00-04:00',
    summary: 'Why a cron job and a folder of files answer most preview traffic better than a server.',
    text: [
      'A preview that changes once a day does not need a server that answers every request from scratch. A build that runs on a schedule, validates what it fetched and writes files is simpler to operate and much cheaper.',
      '',
      'What the build does',
      '',
      '• fetches both upstreams with a deadline and retries;',
      '• validates every payload against the JSON Schemas <https://json-schema.org/>;',
      '• writes each file under a temporary name and renames it into place.',
      '',
      '    npm run build',
      '',
      '> An upstream failure is a 502, never a 200 with invented values.',
    ].join('\n'),
    html: '<p>A preview that changes once a day does not need a server.</p>\n<pre><code>npm run build\n</code></pre>\n',
  },
  {
    slug: 'toronto-midnight',
    title: 'Midnight in Toronto',
    date: '2026-09-14',
    published: '2026-09-14T00:00:00-04:00',
    summary: 'Time zones, daylight saving and the boundary of a contribution calendar.',
    text: 'The calendar refreshes at the next midnight in America/Toronto, which is not always 24 hours away.',
    html: '<p>The calendar refreshes at the next midnight in <code>America/Toronto</code>.</p>\n',
  },
] as const;

export const FIXTURE_SKILLS = [
  {
    name: 'Languages',
    skills: [
      { name: 'TypeScript', note: 'strict, ESM, Node 20' },
      { name: 'Go' },
      { name: 'SQL', note: 'PostgreSQL and SQLite' },
    ],
  },
  {
    name: 'Practices',
    skills: [
      { name: 'HTTP APIs', note: 'RFC 9457 problems, caching, rate limits' },
      { name: 'Testing', note: 'real sockets, fakes that speak the wire format' },
    ],
  },
];

export const FIXTURE_ABOUT = [
  'I build services that publish public data as precomputed JSON, with a small gateway in front when the data must be live.',
  'This site is one of them: its market preview and contribution calendar are rebuilt on a schedule.',
];

async function writeDocument(dir: string, file: string, body: string): Promise<void> {
  const target = join(dir, file);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, body);
}

/** A valid API index (schemas/ApiIndex.schema.json) naming the four data routes. */
export function fixtureApiIndex(siteUrl: string): Record<string, unknown> {
  return {
    name: 'Fixture public data API',
    description: 'Two public, read-only JSON resources.',
    version: '1',
    authentication: 'none',
    documentation: `${siteUrl}/developers`,
    openapi: `${siteUrl}/openapi.json`,
    apiCatalog: `${siteUrl}/.well-known/api-catalog`,
    routes: DEFAULT_SERVICE.resources.map((r) => ({
      id: r.id,
      title: r.title,
      summary: r.summary,
      path: r.v1.path,
      url: `${siteUrl}${r.v1.path}`,
      operationId: r.v1.operationId,
      alias: { path: r.alias.path, url: `${siteUrl}${r.alias.path}`, operationId: r.alias.operationId },
      methods: ['GET', 'HEAD'],
      schema: r.schema,
      contentType: 'application/json',
      cacheControl: 'no-store',
    })),
  };
}

/** Writes every document the CLI reads into `dir`, served at `siteUrl`. */
export async function writeFixtureSite(dir: string, siteUrl: string): Promise<void> {
  await writeDocument(
    dir,
    CONTENT_DOCUMENTS.profile.file,
    JSON.stringify({
      url: `${siteUrl}/`,
      name: 'Ada Park',
      tagline: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
      location: 'Toronto, Canada',
      github: 'https://github.com/octocat',
      description: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
      about: FIXTURE_ABOUT,
      links: [
        { label: 'GitHub', url: 'https://github.com/octocat' },
        { label: 'Writings', url: `${siteUrl}/writings` },
        { label: 'Developers', url: `${siteUrl}/developers` },
      ],
    }),
  );
  await writeDocument(
    dir,
    CONTENT_DOCUMENTS.feed.file,
    JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      title: 'Ada Park: Writings',
      home_page_url: `${siteUrl}/writings`,
      feed_url: `${siteUrl}/feed.json`,
      description: 'Notes on data, HTTP and tools.',
      language: 'en',
      authors: [{ name: 'Ada Park', url: `${siteUrl}/` }],
      items: FIXTURE_WRITINGS.map((w) => ({
        id: `${siteUrl}/writings/${w.slug}`,
        url: `${siteUrl}/writings/${w.slug}`,
        title: w.title,
        summary: w.summary,
        date_published: w.published,
        content_html: w.html,
        content_text: w.text,
      })),
    }),
  );
  await writeDocument(
    dir,
    CONTENT_DOCUMENTS.skills.file,
    JSON.stringify({ url: `${siteUrl}/skills`, groups: FIXTURE_SKILLS }),
  );

  const operations = DEFAULT_SERVICE.resources.flatMap((r) =>
    [r.v1, r.alias].map((op) => ({ ...op, summary: r.summary, title: r.title })),
  );
  await writeDocument(dir, API_INDEX.file, JSON.stringify(fixtureApiIndex(siteUrl)));
  await writeDocument(
    dir,
    DISCOVERY.openapi.file,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Public Data Preview API', version: '1.0.0' },
      servers: [{ url: siteUrl }],
      security: [],
      paths: Object.fromEntries(
        operations.map((op) => [
          op.path,
          { get: { operationId: op.operationId, summary: op.title, parameters: [], security: [] } },
        ]),
      ),
    }),
  );
  await writeDocument(
    dir,
    DISCOVERY.apiCatalog.file,
    JSON.stringify({
      linkset: [
        {
          anchor: `${siteUrl}/api`,
          item: operations.map((op) => ({ href: `${siteUrl}${op.path}`, type: 'application/json', title: op.title })),
          'service-desc': [{ href: `${siteUrl}/openapi.json`, type: 'application/openapi+json' }],
          'service-doc': [{ href: `${siteUrl}/developers`, type: 'text/html' }],
        },
      ],
    }),
  );
}
