// A dataset missing from a build (its upstream failed and no previous snapshot stood in) has no snapshot
// file, so no published document may link or name its data paths (issue 30: "the site's links to missing
// JSON go away"): the API index, catalog, OpenAPI, developer page, llms files and pages list only what the
// build publishes (builders/build/artifact.ts, publishedDatasets). Its cards stay, drawn "unavailable", so links
// to them stay too; status.json names it as missing. With every dataset present nothing changes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkDist } from '../builders/build/dist-check/check.ts';
import { buildSite, sharedSite, TEST_SITE_URL, type BuiltSite } from './helpers/site-dist.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';

/**
 * Files allowed to name a missing dataset's paths:
 * - serve.json, _headers, _redirects: static-host rules, not documents. A rule for a path with no file
 *   matches nothing (the host answers its 404), and keeping the rules whatever the data leaves the host's
 *   configuration the same from build to build.
 * - cli.mjs: the command-line program's route table, not a document. It reads whatever site `--base-url`
 *   names (a gateway serves every dataset live), and on this site its command for the missing dataset
 *   ends with the host's 404, naming the URL.
 */
const NOT_DOCUMENTS = new Set(['serve.json', '_headers', '_redirects', 'cli.mjs']);

/** The dist/ files that name any of `paths`, compressed copies skipped (they hold the same bytes as their file). */
async function filesNaming(dir: string, files: string[], paths: readonly string[]): Promise<string[]> {
  const naming: string[] = [];
  for (const file of files) {
    if (file.endsWith('.br') || file.endsWith('.gz')) continue;
    const text = await readFile(join(dir, file), 'utf8');
    if (paths.some((p) => text.includes(p))) naming.push(file);
  }
  return naming;
}

const MARKET_PATHS = ['/api/v1/mon-price', '/api/mon-price'];
const CALENDAR_PATHS = [
  '/api/v1/github-contributions',
  '/api/github-contributions',
  '/api/v1/github-streak',
  '/api/github-streak',
];

describe('every dataset present (the shared build)', () => {
  it('the documents name every data path (what the checks below would catch)', async () => {
    const site = sharedSite();
    const naming = await filesNaming(site.dir, await site.files(), [...MARKET_PATHS, ...CALENDAR_PATHS]);
    for (const file of ['api/index.json', '.well-known/api-catalog', 'openapi.json', 'developers.html'])
      expect(naming).toContain(file);
    expect(naming).toEqual(
      expect.arrayContaining(['developers.md', 'llms.txt', 'llms-full.txt', 'index.html', ...NOT_DOCUMENTS]),
    );
  });
});

describe('the market upstream down, no previous snapshot', () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildSite({ setup: (fake) => void (fake.market.mode = 'not-found') });
  });
  afterAll(() => site?.close());

  it('the build exits 1 and writes no market snapshot; status.json names the market missing, without a path', async () => {
    expect(site.result.code).toBe(1);
    const files = await site.files();
    expect(files).not.toContain('api/v1/mon-price');
    expect(files).not.toContain('api/mon-price');
    const status = await site.read('status.json');
    expect(JSON.parse(status)).toMatchObject({
      datasets: expect.arrayContaining([expect.objectContaining({ id: 'market', state: 'missing' })]),
    });
    for (const path of MARKET_PATHS) expect(status).not.toContain(path);
  });

  it('no published document names /api/v1/mon-price or /api/mon-price', async () => {
    const naming = await filesNaming(site.dir, await site.files(), MARKET_PATHS);
    expect(naming.filter((file) => !NOT_DOCUMENTS.has(file))).toEqual([]);
  });

  it('the documents still list the calendar and the streak', async () => {
    const index = await site.json<{ routes: Array<{ path: string }> }>('api/index.json');
    // Every dataset but the market, in the registry's order.
    expect(index.routes.map((r) => r.path)).toEqual(
      DEFAULT_SERVICE.resources.filter((r) => r.v1.path !== '/api/v1/mon-price').map((r) => r.v1.path),
    );
    const openapi = await site.json<{ paths: Record<string, unknown> }>('openapi.json');
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(CALENDAR_PATHS));
    for (const file of ['.well-known/api-catalog', 'developers.md', 'llms.txt'])
      for (const path of CALENDAR_PATHS) expect(await site.read(file), `${file} ${path}`).toContain(path);
  });

  it('cards/mon-price.svg exists, says unavailable and holds no price', async () => {
    for (const file of ['cards/mon-price.svg', 'cards/mon-price-dark.svg']) {
      const svg = await site.read(file);
      expect(svg, file).toContain('<title id="card-title">Market preview: unavailable</title>');
      expect(svg, file).not.toContain('USD<');
      // no number at all but the build time it states
      expect(svg.replace(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/g, ''), file).not.toMatch(/>[^<]*\d[^<]*</);
    }
  });

  it('check:dist finds no broken link without --allow-missing-data', async () => {
    const report = await checkDist(site.dir, TEST_SITE_URL);
    expect(report.absentData).toEqual(['market']);
    expect(report.missingData).toEqual([]);
    expect(report.failures).toEqual([]);
  });
});

describe('the calendar upstream down, no previous snapshot', () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildSite({ setup: (fake) => void (fake.github.mode = 'unknown-account') });
  });
  afterAll(() => site?.close());

  it('no published document names the calendar nor the streak paths; the market stays listed', async () => {
    expect(site.result.code).toBe(1);
    const naming = await filesNaming(site.dir, await site.files(), CALENDAR_PATHS);
    expect(naming.filter((file) => !NOT_DOCUMENTS.has(file))).toEqual([]);
    const index = await site.json<{ routes: Array<{ path: string }> }>('api/index.json');
    // Every dataset but the calendar and the streak derived from it.
    expect(index.routes.map((r) => r.path)).toEqual(
      DEFAULT_SERVICE.resources.map((r) => r.v1.path).filter((path) => !CALENDAR_PATHS.includes(path)),
    );
    expect(await site.read('llms.txt')).toContain('/api/v1/mon-price');
  });

  it('check:dist finds no broken link without --allow-missing-data', async () => {
    const report = await checkDist(site.dir, TEST_SITE_URL);
    expect(report.absentData.sort()).toEqual(['contributions', 'streak']);
    expect(report.failures).toEqual([]);
  });
});

describe('every upstream down (an offline first start)', () => {
  let site: BuiltSite;
  beforeAll(async () => {
    site = await buildSite({
      // The fakes' one switch: every upstream, whatever datasets the registry holds.
      setup: (fake) => void (fake.allDown = true),
    });
  });
  afterAll(() => site?.close());

  // The API index's contract holds at least one route (schemas/ApiIndex.schema.json): with nothing
  // published the documents keep listing every dataset, status.json says each is missing.
  it('the documents keep every dataset, and check:dist -- --allow-missing-data checks the rest', async () => {
    expect(site.result.code).toBe(1);
    const index = await site.json<{ routes: unknown[] }>('api/index.json');
    expect(index.routes).toHaveLength(DEFAULT_SERVICE.resources.length);
    const strict = await checkDist(site.dir, TEST_SITE_URL);
    expect(strict.failures.length).toBeGreaterThan(0);
    expect(strict.failures.every((f) => f.absentDataset !== undefined)).toBe(true);
    const allowing = await checkDist(site.dir, TEST_SITE_URL, { allowMissingData: true });
    expect(allowing.missingData.sort()).toEqual(DEFAULT_SERVICE.resources.map((r) => r.id).sort());
    expect(allowing.failures).toEqual([]);
  });
});
