// Datasets are modules (docs/architecture.md#add-a-dataset): everything about a dataset is declared in its
// own folder under datasets/, and every program iterates the registry. So no product file outside a
// dataset's own folder compares anything against a dataset's id: a third dataset would silently take
// another's path there. Read from the source text, as test/layering.test.ts reads the imports.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run.ts';
import { datasets } from '../builders/datasets/registry.ts';
import { DEFAULT_SERVICE, DEFAULT_SERVICE_OPTIONS } from '../builders/datasets/registry.ts';
import type { PictureModule, ViewModule } from '../builders/render/dataset-view.ts';

const PRODUCT = ['builders', 'gateway', 'site'];
const IDS = datasets(DEFAULT_SERVICE_OPTIONS).map((d) => d.resource.id);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/**
 * Where a file singles a dataset out by its id: a comparison (`x === 'id'`, `'id' !== x`, `case 'id':`), a
 * keyed table (`{ id: … }`, `'id': …`, `table['id']`, `table.id`) or an attribute literal
 * (`data-preview="id"`), with either quote; comments left out.
 */
function comparisons(text: string, id: string): string[] {
  const code = text.replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
  const q = `(['"\`])${id}\\1`;
  const patterns = [
    new RegExp(`[!=]==?\\s*${q}`, 'g'),
    new RegExp(`${q}\\s*[!=]==?`, 'g'),
    new RegExp(`case\\s+${q}`, 'g'),
    // A key, not a typed parameter or member (`market: MarketSource`): its value does not start with a capital.
    new RegExp(`(?:^|[{,])\\s*(['"]?)${id}\\1\\s*:(?![:\\s]*[A-Z])`, 'gm'),
    new RegExp(`\\[\\s*${q}\\s*\\]`, 'g'),
    new RegExp(`(?<!\\.\\.)\\.${id}\\b`, 'g'),
    new RegExp(`[\\w-]+=\\\\?(["'])${id}\\\\?\\1`, 'g'),
  ];
  return patterns.flatMap((p) => [...code.matchAll(p)].map((m) => m[0]));
}

/**
 * Members of another document that happen to share a dataset's id, each named with its file: JSON Resume's
 * `languages` section (the spoken ones) is the résumé's, not the languages dataset's.
 */
const OTHER_FIELDS = ['builders/build/pages/resume.ts: .languages'];

describe('datasets are modules', () => {
  // The one test that pins the list: adding a dataset changes it, and every other test iterates the registry
  // (test/dataset-rules.test.ts checks what each must have). Its published names are the contract: pinned here too.
  it('the registry holds the market, the calendar, the streak, the projects and the languages, under their published names', () => {
    expect(IDS).toEqual(['market', 'contributions', 'streak', 'projects', 'languages']);
    expect(
      DEFAULT_SERVICE.resources.map((r) => [
        r.id,
        r.v1.path,
        r.v1.operationId,
        r.alias.path,
        r.alias.operationId,
        r.command.name,
        r.card,
      ]),
    ).toEqual([
      ['market', '/api/v1/mon-price', 'getV1MonPrice', '/api/mon-price', 'getMonPrice', 'price', 'mon-price'],
      [
        'contributions',
        '/api/v1/github-contributions',
        'getV1GithubContributions',
        '/api/github-contributions',
        'getGithubContributions',
        'contributions',
        'github-contributions',
      ],
      [
        'streak',
        '/api/v1/github-streak',
        'getV1GithubStreak',
        '/api/github-streak',
        'getGithubStreak',
        'streak',
        'github-streak',
      ],
      [
        'projects',
        '/api/v1/github-projects',
        'getV1GithubProjects',
        '/api/github-projects',
        'getGithubProjects',
        'projects',
        'github-projects',
      ],
      [
        'languages',
        '/api/v1/github-languages',
        'getV1GithubLanguages',
        '/api/github-languages',
        'getGithubLanguages',
        'languages',
        'github-languages',
      ],
    ]);
    // The cards are listed calendar first, as they were first published (serve.json, _headers).
    expect([...new Set(DEFAULT_SERVICE.cards.map((c) => c.resource))]).toEqual([
      'contributions',
      'market',
      'streak',
      'projects',
      'languages',
    ]);
  });

  it('finds a comparison where there is one (the reader is not blind)', () => {
    expect(comparisons("if (resource.id === 'market') x();", 'market')).toEqual(["=== 'market'"]);
    expect(comparisons('return "contributions" !== id;', 'contributions')).toEqual(['"contributions" !==']);
    expect(comparisons("switch (id) { case 'market': }", 'market')).toEqual(["case 'market'"]);
    expect(comparisons("// id === 'market' in a comment", 'market')).toEqual([]);
    expect(comparisons('const T = {\n  market: 1,\n  streak: 2 };', 'streak')).toEqual([',\n  streak:']);
    expect(comparisons("const T = { 'market': 1 }; T['market']; CACHE.market;", 'market')).toEqual([
      "{ 'market':",
      "['market']",
      '.market',
    ]);
    expect(comparisons(`q('[data-preview="market"]'); "<p data-x=\\"market\\">"`, 'market')).toEqual([
      'data-preview="market"',
      'data-x=\\"market\\"',
    ]);
    expect(comparisons('f({ ...market, a }); x ? market : y; (market: M) => 1;\n  market: Source,', 'market')).toEqual(
      [],
    );
  });

  it.each(IDS)("no product file outside the datasets' folders singles out %s by its id", (id) => {
    // A dataset's folder speaks of its own payload (`payload.projects`) and may name the dataset it is
    // derived from; every other product file, the registry included, names none.
    const found = PRODUCT.flatMap(sourceFiles)
      .filter((file) => !/^builders\/datasets\/[^/]+\//.test(file))
      .flatMap((file) => comparisons(readFileSync(join(ROOT, file), 'utf8'), id).map((c) => `${file}: ${c}`))
      .filter((found) => !OTHER_FIELDS.includes(found));
    expect(found).toEqual([]);
  });

  it("no file outside datasets/ imports one dataset's folder (the page script and the CLI reach views by id)", () => {
    const own = new RegExp(`^builders/datasets/(${IDS.join('|')})/`);
    const found = [...PRODUCT, 'test/fakes', 'test/demo', 'test/bench']
      .flatMap(sourceFiles)
      .filter((file) => !file.startsWith('builders/datasets/'))
      .flatMap((file) =>
        [
          ...readFileSync(join(ROOT, file), 'utf8').matchAll(
            /\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"`]([^'"`]+)/g,
          ),
        ]
          .map((m) => m[1] ?? m[2]!)
          .filter((specifier) => own.test(posix.join(dirname(file), specifier)))
          .map((specifier) => `${file} imports ${specifier}`),
      );
    expect(found).toEqual([]);
  });

  it.each(IDS)(
    'datasets/%s/ holds the view and the picture its module declares, reached by the id alone',
    async (id) => {
      const dataset = datasets(DEFAULT_SERVICE_OPTIONS).find((d) => d.resource.id === id)!;
      const { view } = (await import(`../builders/datasets/${id}/view.ts`)) as ViewModule;
      const { picture } = (await import(`../builders/datasets/${id}/picture.ts`)) as PictureModule;
      expect(view).toBe(dataset.view);
      expect(picture).toBe(dataset.picture);
    },
  );
});
