// docs/architecture.md's recipe, as a maintainer follows it in a copy of the repository: the throwaway
// dataset's folder (test/fixtures/dataset-recipe/downloads/, an upstream of its own), then the registry's
// import and its line in datasets(). Nothing else changes.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from './run.ts';

const FOLDER = join(ROOT, 'test/fixtures/dataset-recipe/downloads');

/**
 * The registry's two lines for a dataset, in the copy at `dir`: `importLine` after the import `afterImport`,
 * `entry` after the line `afterEntry` of datasets(). Exactly two lines are added, or this throws.
 */
export async function register(
  dir: string,
  lines: { afterImport: string; importLine: string; afterEntry: string; entry: string },
): Promise<void> {
  const registry = join(dir, 'builders/datasets/registry.ts');
  const text = await readFile(registry, 'utf8');
  const edited = text
    .replace(`${lines.afterImport}\n`, `${lines.afterImport}\n${lines.importLine}\n`)
    .replace(`${lines.afterEntry}\n`, `${lines.afterEntry}\n${lines.entry}\n`);
  const added = edited.split('\n').length - text.split('\n').length;
  if (added !== 2) throw new Error(`the registry gained ${added} lines, not 2: has it changed shape?`);
  await writeFile(registry, edited);
}

const AFTER_PROJECTS = {
  afterImport: "import { projectsDataset } from './projects/index.ts';",
  afterEntry: '    projectsDataset(),',
};

/** The recipe's two steps in the copy at `dir`; the registry gains exactly two lines, or this throws. */
export async function addDataset(dir: string): Promise<void> {
  await cp(FOLDER, join(dir, 'builders/datasets/downloads'), { recursive: true });
  await register(dir, {
    ...AFTER_PROJECTS,
    importLine: "import { downloadsDataset } from './downloads/index.ts';",
    entry: '    downloadsDataset(),',
  });
}

/** The id of the projects' copy (copyProjects). */
export const PROJECTS_COPY_ID = 'projects-copy';

/**
 * The projects' folder copied under a new id, as a fork that wants a second list would start: the strings
 * of its index.ts renamed (id, title, paths, card, card folder, command, phrase), its schema shared, then
 * one import and one line in the registry.
 */
export async function copyProjects(dir: string): Promise<void> {
  const folder = join(dir, 'builders/datasets', PROJECTS_COPY_ID);
  await cp(join(dir, 'builders/datasets/projects'), folder, { recursive: true });
  const index = join(folder, 'index.ts');
  const original = await readFile(index, 'utf8');
  const renames: [string, string][] = [
    ["id: 'projects'", `id: '${PROJECTS_COPY_ID}'`],
    ["title: 'Projects'", "title: 'Projects copy'"],
    ["dataPaths('github-projects', 'GithubProjects')", "dataPaths('github-projects-copy', 'GithubProjectsCopy')"],
    ["card: 'github-projects'", "card: 'github-projects-copy'"],
    ["cardFolder: 'repos'", "cardFolder: 'repos-copy'"],
    ["name: 'projects',", `name: '${PROJECTS_COPY_ID}',`],
    ["phrase: 'the GitHub projects of the account'", "phrase: 'a copy of the GitHub projects'"],
  ];
  let renamed = original;
  for (const [from, to] of renames) {
    if (!renamed.includes(from)) throw new Error(`the projects' index.ts has no ${from}: has it changed shape?`);
    renamed = renamed.replace(from, to);
  }
  await writeFile(index, renamed);
  await register(dir, {
    ...AFTER_PROJECTS,
    importLine: `import { projectsDataset as copyDataset } from './${PROJECTS_COPY_ID}/index.ts';`,
    entry: '    copyDataset(),',
  });
}
