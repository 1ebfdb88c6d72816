// docs/architecture.md's recipe, as a maintainer follows it in a copy of the repository: the throwaway
// dataset's folder (test/fixtures/dataset-recipe/downloads/, an upstream of its own), then the registry's
// import and its line in datasets(). Nothing else changes.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './run.ts';

const FOLDER = join(ROOT, 'test/fixtures/dataset-recipe/downloads');

/** The recipe's two steps in the copy at `dir`; the registry gains exactly two lines, or this throws. */
export async function addDataset(dir: string): Promise<void> {
  await cp(FOLDER, join(dir, 'builders/datasets/downloads'), { recursive: true });
  const registry = join(dir, 'builders/datasets/registry.ts');
  const text = await readFile(registry, 'utf8');
  const edited = text
    .replace(
      "import { projectsDataset } from './projects/index.ts';",
      "$&\nimport { downloadsDataset } from './downloads/index.ts';",
    )
    .replace('    projectsDataset(),\n', '$&    downloadsDataset(),\n');
  const added = edited.split('\n').length - text.split('\n').length;
  if (added !== 2) throw new Error(`the registry gained ${added} lines, not the recipe's 2: has it changed shape?`);
  await writeFile(registry, edited);
}
