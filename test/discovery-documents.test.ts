// /api, /.well-known/api-catalog, /llms.txt, /llms-full.txt, /sitemap.xml, robots.txt and the developer
// page, each checked against its standard and against the shared sources it is generated from. The
// titles and writings named are those of the tests' own content, test/fixtures/site/ (sharedSite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliReferenceMarkdown } from '../builders/build/pages/cli-reference.ts';
import { PROBLEM_TYPES } from '../builders/contract/problems.ts';
import { API_INDEX_LINK, DISCOVERY } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { createValidator, loadSchemas } from '../builders/contract/schemas.ts';
import { sharedSite, TEST_SITE_URL, type SiteFiles } from './helpers/site-dist.ts';

type Json = Record<string, any>;
let site: SiteFiles;
beforeAll(async () => {
  site = sharedSite();
  expect(site.result.code).toBe(0);
});
afterAll(() => site.close());

const isAbsolute = (url: string) => /^https?:\/\/[^/]+/.test(url) && new URL(url).href.length > 0;
const DATA_URLS = DEFAULT_SERVICE.resources
  .flatMap((r) => [r.v1.path, r.alias.path])
  .map((p) => `${TEST_SITE_URL}${p}`);

describe('/api', () => {
  it('validates against schemas/ApiIndex and says authentication none', async () => {
    const index = await site.json<Json>('api/index.json');
    createValidator().validate('ApiIndex', index);
    expect(index.authentication).toBe('none');
    expect(index.documentation).toBe(`${TEST_SITE_URL}/developers`);
    expect(index.openapi).toBe(`${TEST_SITE_URL}/openapi.json`);
    expect(index.apiCatalog).toBe(`${TEST_SITE_URL}/.well-known/api-catalog`);
    expect(index.routes.map((r: Json) => [r.path, r.operationId, r.alias.path, r.alias.operationId])).toEqual(
      DEFAULT_SERVICE.resources.map((r) => [r.v1.path, r.v1.operationId, r.alias.path, r.alias.operationId]),
    );
  });
});

describe('/.well-known/api-catalog', () => {
  it('is an RFC 9264 linkset: linkset is the only member, each context has an absolute anchor and arrays of targets with absolute hrefs', async () => {
    const catalog = await site.json<Json>('.well-known/api-catalog');
    expect(Object.keys(catalog)).toEqual(['linkset']);
    expect(Array.isArray(catalog.linkset)).toBe(true);
    for (const context of catalog.linkset as Json[]) {
      expect(isAbsolute(context.anchor)).toBe(true);
      for (const [relation, targets] of Object.entries(context)) {
        if (relation === 'anchor') continue;
        expect(Array.isArray(targets), relation).toBe(true);
        for (const target of targets as Json[]) {
          expect(isAbsolute(target.href), `${relation} ${target.href}`).toBe(true);
          expect(target.href.startsWith(TEST_SITE_URL)).toBe(true);
        }
      }
    }
  });

  it('links every data endpoint as an item of the catalog (RFC 9727), each with service-desc, service-doc and service-meta', async () => {
    const catalog = await site.json<Json>('.well-known/api-catalog');
    const root = (catalog.linkset as Json[]).find((c) => c.anchor === `${TEST_SITE_URL}/.well-known/api-catalog`)!;
    expect(root.item.map((t: Json) => t.href).sort()).toEqual([...DATA_URLS].sort());
    for (const url of DATA_URLS) {
      const context = (catalog.linkset as Json[]).find((c) => c.anchor === url)!;
      expect(context['service-desc']).toContainEqual(
        expect.objectContaining({ href: `${TEST_SITE_URL}/openapi.json` }),
      );
      expect(context['service-doc']).toContainEqual(
        expect.objectContaining({ href: `${TEST_SITE_URL}/developers`, type: 'text/html' }),
      );
      expect(context['service-meta']).toContainEqual(
        expect.objectContaining({ href: `${TEST_SITE_URL}${API_INDEX_LINK}` }),
      );
    }
  });
});

describe('/llms.txt and /llms-full.txt', () => {
  it('follows llmstxt.org: # title, > summary, then ## sections of - [name](url): notes lines', async () => {
    const text = await site.read('llms.txt');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('# Ada Park');
    expect(lines[2]).toMatch(/^> \S/);
    expect(lines.filter((l) => l.startsWith('# '))).toHaveLength(1);
    const sections = text.split(/\n(?=## )/).slice(1);
    expect(sections.map((s) => s.split('\n')[0])).toEqual(['## Pages', '## Writings', '## API', '## Optional']);
    for (const section of sections) {
      for (const line of section.split('\n').slice(1).filter(Boolean)) {
        expect(line).toMatch(/^- \[[^\]]+\]\((https?:\/\/[^)]+)\)(: .+)?$/);
        expect(isAbsolute(/\]\(([^)]+)\)/.exec(line)![1]!)).toBe(true);
      }
    }
    expect(text).toContain(`(${TEST_SITE_URL}/developers.md)`);
    expect(text).toContain(`(${TEST_SITE_URL}/writings/static-plus-cron.md)`);
  });

  it('llms-full.txt holds the Markdown of the pages, in the order llms.txt lists them', async () => {
    const list = await site.read('llms.txt');
    const full = await site.read('llms-full.txt');
    const twins = [...list.matchAll(/\]\((https?:\/\/[^)]+\.md)\)/g)].map((m) => m[1]!.slice(TEST_SITE_URL.length + 1));
    expect(twins.length).toBe(7);
    let last = -1;
    for (const file of twins) {
      const body = (await site.read(file)).replace(/^---\n[\s\S]*?\n---\n/, '').trim();
      const at = full.indexOf(body);
      expect(at, file).toBeGreaterThan(last);
      last = at;
    }
  });
});

describe('/sitemap.xml and robots.txt', () => {
  it('lists exactly the published HTML pages with absolute <loc>s in the sitemaps.org namespace', async () => {
    const xml = await site.read('sitemap.xml');
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs).toEqual([
      `${TEST_SITE_URL}/`,
      `${TEST_SITE_URL}/writings`,
      `${TEST_SITE_URL}/writings/midnight-in-toronto`,
      `${TEST_SITE_URL}/writings/static-plus-cron`,
      `${TEST_SITE_URL}/skills`,
      `${TEST_SITE_URL}/resume`,
      `${TEST_SITE_URL}/developers`,
    ]);
    for (const lastmod of xml.matchAll(/<lastmod>([^<]+)<\/lastmod>/g))
      expect(lastmod[1]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(xml).not.toMatch(/\.md<|\/api|draft|unfinished/);
  });

  it('robots.txt names the sitemap', async () => {
    expect(await site.read('robots.txt')).toContain(`Sitemap: ${TEST_SITE_URL}/sitemap.xml`);
  });
});

describe('/developers and /developers.md', () => {
  it('carries an element whose id is each problem type fragment, and the twin an anchor for each', async () => {
    const html = await site.read('developers.html');
    const md = await site.read('developers.md');
    for (const p of Object.values(PROBLEM_TYPES)) {
      expect(html.match(new RegExp(`id="${p.fragment}"`, 'g')), p.fragment).toHaveLength(1);
      expect(html).toContain(`href="#${p.fragment}"`);
      expect(md).toContain(`<a id="${p.fragment}"></a>${p.title}`);
      expect(md).toContain(`\`${p.code}\``);
    }
  });

  it('documents every endpoint, operationId and schema field, with example requests and responses', async () => {
    const md = await site.read('developers.md');
    for (const r of DEFAULT_SERVICE.resources) {
      for (const op of [r.v1, r.alias]) {
        expect(md).toContain(`\`${op.path}\``);
        expect(md).toContain(`\`${op.operationId}\``);
      }
      expect(md).toContain(`curl -i ${TEST_SITE_URL}${r.v1.path}`);
    }
    const schemas = loadSchemas();
    const byId = new Map([...schemas.values()].map((s) => [s.$id, s]));
    for (const [title, schema] of schemas) {
      for (const [field, def] of Object.entries(
        schema.properties as Record<string, { description?: string; $ref?: string }>,
      )) {
        // A member that is a whole other schema ($ref alone) is described by that schema.
        const description = def.description ?? (byId.get(def.$ref!)!.description as string);
        expect(md, `${title}.${field}`).toMatch(
          new RegExp(
            `\\| \`(\\w+(\\[\\])?\\.)*${field}\` \\|[^\\n]*\\| ${description.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\|`,
          ),
        );
      }
    }
    expect(md).toMatch(/"product": "MON-USD"/);
    expect(md).toMatch(/"timeZone": "America\/Toronto"/);
  });

  it('covers headers and caching, quota, versioning and deprecation, no financial advice, and the CLI', async () => {
    const md = await site.read('developers.md');
    expect(md).toContain('private, no-store');
    expect(md).toContain('stale-while-revalidate=300');
    expect(md).toContain('"public-api";q=<quota>;w=<window seconds>');
    expect(md).toContain('Retry-After');
    expect(md).toMatch(/Deprecation.*RFC 9745/);
    expect(md).toMatch(/Sunset.*RFC 8594/);
    expect(md).toMatch(/financial advice/);
    expect(md).toContain(`curl -O ${TEST_SITE_URL}/cli.mjs && node cli.mjs --help`);
    expect(md).toContain(
      cliReferenceMarkdown(DEFAULT_SERVICE)
        .trim()
        .split('\n')
        .find((l) => l.trim() && !l.startsWith('#'))!
        .trim(),
    );
  });
});

describe('the MCP endpoint in the discovery documents (gateway only)', () => {
  const MCP_URL = `${TEST_SITE_URL}/mcp`;
  const TOOL_NAMES = DEFAULT_SERVICE.resources.flatMap((r) => [r.v1.operationId, r.alias.operationId]);

  it('/developers.md documents /mcp: every tool, the rules, a client configuration, and "gateway only"', async () => {
    const md = await site.read('developers.md');
    const section = md.slice(md.indexOf('## Model Context Protocol (gateway only)'));
    expect(section.length).toBeGreaterThan(0);
    const body = section.slice(0, section.indexOf('\n## ', 10));
    for (const name of TOOL_NAMES) expect(body).toContain(`| \`${name}\` |`);
    expect(body).toContain('Gateway only');
    expect(body).toContain('{"type":"object","properties":{},"required":[],"additionalProperties":false}');
    expect(body).toMatch(/upstream_unavailable/);
    expect(body).toMatch(/rate_limit_exceeded.*retryAfter/);
    expect(body).toMatch(/every POST to the endpoint counts once/);
    expect(body).toMatch(/origin_not_allowed|MCP_ALLOWED_ORIGINS/);
    const config = /```json\n(\{\n {2}"mcpServers"[\s\S]*?)\n```/.exec(body);
    expect(JSON.parse(config![1]!)).toEqual({ mcpServers: { 'public-data-preview': { type: 'http', url: MCP_URL } } });
    expect(body).toContain(`curl -s ${MCP_URL}`);
    const html = await site.read('developers.html');
    expect(html).toContain('id="model-context-protocol-gateway-only"');
    expect(md).toContain('(#model-context-protocol-gateway-only)');
  });

  it('/llms.txt and the /api index point to it and say "gateway only"', async () => {
    const llms = await site.read('llms.txt');
    const line = llms.split('\n').find((l) => l.includes(`](${MCP_URL})`));
    expect(line).toMatch(/^- \[MCP endpoint \(gateway only\)\]/);
    for (const name of TOOL_NAMES) expect(line).toContain(name);
    const index = await site.json<Json>('api/index.json');
    expect(index.mcp).toMatchObject({
      url: MCP_URL,
      transport: 'streamable-http',
      availability: 'gateway only',
      tools: TOOL_NAMES,
    });
  });

  it('the catalog names /openapi.json with the type it is served as', async () => {
    const catalog = await site.json<Json>('.well-known/api-catalog');
    const descs = (catalog.linkset as Json[]).flatMap((c) => (c['service-desc'] ?? []) as Json[]);
    expect(descs.length).toBeGreaterThan(0);
    for (const d of descs) expect(d.type).toBe(DISCOVERY.openapi.contentType);
    // Every static host serves a .json file as application/json, the gateway's type for it too.
    expect(DISCOVERY.openapi.contentType).toBe('application/json');
  });
});
