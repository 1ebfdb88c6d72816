// A hand-written site for the CLI tests: every document the CLI reads, with known values, in the format
// the site generator writes (Markdown twins: builders/content/twins.ts and builders/pages/; the API
// index and discovery documents at their contract/service.ts files). It pins the parsing to exact values
// whatever content the real build publishes.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { API_INDEX, DATA_RESOURCES, DISCOVERY } from '../../contract/service.ts';

export const FIXTURE_WRITINGS = [
  {
    slug: 'precomputed-json',
    title: 'Precomputed JSON beats a live API',
    date: '2026-10-30',
    summary: 'Why a cron job and a folder of files answer most preview traffic better than a server.',
    body: [
      '# Precomputed JSON beats a live API',
      '',
      'A preview that changes once a day does not need a server that answers every request from scratch. A build that runs on a schedule, validates what it fetched and writes files is simpler to operate and *much* cheaper.',
      '',
      '## What the build does',
      '',
      '- fetches both upstreams with a deadline and retries;',
      '- validates every payload against the [JSON Schemas](https://json-schema.org/);',
      '- writes each file under a temporary name and renames it into place.',
      '',
      '```sh',
      'npm run build',
      '```',
      '',
      '> An upstream failure is a 502, never a 200 with invented values.',
    ].join('\n'),
  },
  {
    slug: 'toronto-midnight',
    title: 'Midnight in Toronto',
    date: '2026-09-14',
    summary: 'Time zones, daylight saving and the boundary of a contribution calendar.',
    body: [
      '# Midnight in Toronto',
      '',
      'The calendar refreshes at the next midnight in `America/Toronto`, which is not always 24 hours away.',
    ].join('\n'),
  },
] as const;

export const FIXTURE_SKILLS = [
  {
    name: 'Languages',
    skills: [
      ['TypeScript', 'strict, ESM, Node 20'],
      ['Go', null],
      ['SQL', 'PostgreSQL and SQLite'],
    ],
  },
  {
    name: 'Practices',
    skills: [
      ['HTTP APIs', 'RFC 9457 problems, caching, rate limits'],
      ['Testing', 'real sockets, fakes that speak the wire format'],
    ],
  },
] as const;

async function writeDocument(dir: string, file: string, body: string): Promise<void> {
  const target = join(dir, file);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, body);
}

const frontMatter = (fields: Record<string, string>) =>
  ['---', ...Object.entries(fields).map(([k, v]) => `${k}: ${v}`), '---', ''].join('\n');

/** Writes every document the CLI reads into `dir`, served at `siteUrl`. */
export async function writeFixtureSite(dir: string, siteUrl: string): Promise<void> {
  await writeDocument(
    dir,
    'index.md',
    frontMatter({
      title: 'Ada Park',
      description: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
      url: `${siteUrl}/`,
      name: 'Ada Park',
      tagline: 'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
      location: 'Toronto, Canada',
      github: 'https://github.com/octocat',
    }) +
      [
        '# Ada Park',
        '',
        'Software engineer in Toronto: data pipelines, HTTP APIs and small fast tools.',
        '',
        '## About',
        '',
        'I build services that publish public data as precomputed JSON, with a small gateway in front when the data must be live.',
        '',
        'This site is one of them: its market preview and contribution calendar are rebuilt on a schedule.',
        '',
        '## Links',
        '',
        '- [GitHub](https://github.com/octocat)',
        `- [Writings](${siteUrl}/writings)`,
        `- [Developers](${siteUrl}/developers)`,
        '',
      ].join('\n'),
  );
  await writeDocument(
    dir,
    'writings.md',
    frontMatter({ title: 'Writings', description: 'Notes on data, HTTP and tools.', url: `${siteUrl}/writings` }) +
      [
        '# Writings',
        '',
        ...FIXTURE_WRITINGS.map((w) => `- [${w.title}](${siteUrl}/writings/${w.slug}) \u2014 ${w.date}: ${w.summary}`),
        '',
      ].join('\n'),
  );
  for (const w of FIXTURE_WRITINGS) {
    await writeDocument(
      dir,
      `writings/${w.slug}.md`,
      frontMatter({
        title: w.title,
        description: w.summary,
        url: `${siteUrl}/writings/${w.slug}`,
        date: w.date,
        summary: w.summary,
        slug: w.slug,
      }) +
        w.body +
        '\n',
    );
  }
  await writeDocument(
    dir,
    'skills.md',
    frontMatter({ title: 'Skills', description: 'What I work with.', url: `${siteUrl}/skills` }) +
      [
        '# Skills',
        '',
        ...FIXTURE_SKILLS.flatMap((g) => [
          `## ${g.name}`,
          '',
          ...g.skills.map(([s, note]) => (note ? `- ${s}: ${note}` : `- ${s}`)),
          '',
        ]),
      ].join('\n'),
  );

  const operations = DATA_RESOURCES.flatMap((r) =>
    [r.v1, r.alias].map((op) => ({ ...op, summary: r.summary, title: r.title })),
  );
  await writeDocument(
    dir,
    API_INDEX.file,
    JSON.stringify({
      authentication: 'none',
      developerPage: `${siteUrl}/developers`,
      contract: `${siteUrl}/openapi.json`,
      routes: operations.map((op) => ({ path: op.path, operationId: op.operationId, title: op.title })),
    }),
  );
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

/** The front-matter value of `key` in a twin, read with a plain regex (independent of the CLI's parser). */
export async function frontMatterValue(dir: string, file: string, key: string): Promise<string | undefined> {
  const text = await readFile(join(dir, file), 'utf8');
  const block = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  return new RegExp(`^${key}:[ \\t]*(.*)$`, 'm').exec(block)?.[1]?.trim();
}
