// Datasets are modules (docs/architecture.md#add-a-dataset): everything about a dataset is declared in its
// own folder under datasets/, and every program iterates the registry. So no product file outside a
// dataset's own folder compares anything against a dataset's id: a third dataset would silently take
// another's path there. Read from the source text, as test/layering.test.ts reads the imports.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers/run.ts';
import { datasets } from '../datasets/registry.ts';
import { DEFAULT_SERVICE_OPTIONS } from '../contract/service.ts';

const PRODUCT = ['lib', 'contract', 'domain', 'upstreams', 'render', 'datasets', 'builders', 'gateway', 'cli', 'site'];
const IDS = datasets(DEFAULT_SERVICE_OPTIONS).map((d) => d.resource.id);

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** `x === 'id'`, `'id' !== x`, `case 'id':`, with either quote; comments left out. */
function comparisons(text: string, id: string): string[] {
  const code = text.replace(/^\s*(\/\/.*|\/?\*.*)$/gm, '');
  const q = `(['"\`])${id}\\1`;
  const patterns = [
    new RegExp(`[!=]==?\\s*${q}`, 'g'),
    new RegExp(`${q}\\s*[!=]==?`, 'g'),
    new RegExp(`case\\s+${q}`, 'g'),
  ];
  return patterns.flatMap((p) => [...code.matchAll(p)].map((m) => m[0]));
}

describe('datasets are modules', () => {
  it('the registry holds the market, the calendar and the streak', () => {
    expect(IDS).toEqual(['market', 'contributions', 'streak']);
  });

  it('finds a comparison where there is one (the reader is not blind)', () => {
    expect(comparisons("if (resource.id === 'market') x();", 'market')).toEqual(["=== 'market'"]);
    expect(comparisons('return "contributions" !== id;', 'contributions')).toEqual(['"contributions" !==']);
    expect(comparisons("switch (id) { case 'market': }", 'market')).toEqual(["case 'market'"]);
    expect(comparisons("// id === 'market' in a comment", 'market')).toEqual([]);
  });

  it.each(IDS)('no product file outside datasets/%s/ compares against its id', (id) => {
    const own = `datasets/${id}/`;
    const found = PRODUCT.flatMap(sourceFiles)
      .filter((file) => !file.startsWith(own))
      .flatMap((file) => comparisons(readFileSync(join(ROOT, file), 'utf8'), id).map((c) => `${file}: ${c}`));
    expect(found).toEqual([]);
  });
});
