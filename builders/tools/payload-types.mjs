// Generates the TypeScript types of the payloads with json-schema-to-typescript, so that the schemas stay
// the one source of truth: the code imports these types instead of declaring its own. schemas/ gives
// builders/contract/payload-types.ts; a dataset folder that brings its own schema (builders/datasets/<id>/
// *.schema.json) gets its own payload-types.ts beside it, so that a new dataset's types are its folder's too.
// `npm run generate:types` writes every file; a test fails when one is stale (test/payload-types.test.ts).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import * as prettier from 'prettier';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMAS = `${root}schemas/`;
export const TYPES_FILE = `${root}builders/contract/payload-types.ts`;

const DATASETS = `${root}builders/datasets/`;

const banner = (
  from,
) => `// Generated from ${from}*.schema.json by builders/tools/payload-types.mjs (npm run generate:types): do not edit.
// A schema is the source of truth; change it and regenerate.`;

const schemaFiles = async (dir) => (await readdir(dir)).filter((f) => f.endsWith('.schema.json')).sort();

/** The file's text for the schemas of `dir` (a folder path ending in /), as the generator would write it now. */
async function typesOf(dir, file) {
  const parts = [];
  for (const name of await schemaFiles(dir)) {
    const schema = JSON.parse(await readFile(dir + name, 'utf8'));
    parts.push(
      await compile(schema, schema.title, {
        cwd: dir,
        bannerComment: '',
        format: false,
        // Each schema is compiled on its own: a $ref names a type another schema declares.
        declareExternallyReferenced: false,
        // "365 days" as a 365-member tuple helps no one; the schema validates the count.
        ignoreMinAndMaxItems: true,
        additionalProperties: false,
      }),
    );
  }
  const text = `${banner(dir.slice(root.length))}\n\n${parts.join('\n')}`;
  const config = await prettier.resolveConfig(file);
  // Prettier looks for a plugin named by its package (.prettierrc.json) from the working folder up:
  // resolved from this file instead, the generator runs the same from any folder.
  const plugins = config?.plugins?.map((plugin) =>
    typeof plugin === 'string' ? fileURLToPath(import.meta.resolve(plugin)) : plugin,
  );
  return prettier.format(text, { ...config, ...(plugins && { plugins }), filepath: file });
}

/** builders/contract/payload-types.ts, as the generator would write it now. */
export function payloadTypes() {
  return typesOf(SCHEMAS, TYPES_FILE);
}

/** Every generated file, by path: schemas/'s, then each dataset folder's that has a schema of its own. */
export async function payloadTypeFiles() {
  const files = [{ file: TYPES_FILE, text: await payloadTypes() }];
  const folders = (await readdir(DATASETS, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const name of folders.sort()) {
    const dir = `${DATASETS}${name}/`;
    if ((await schemaFiles(dir)).length === 0) continue;
    const file = `${dir}payload-types.ts`;
    files.push({ file, text: await typesOf(dir, file) });
  }
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, text } of await payloadTypeFiles()) {
    await writeFile(file, text);
    console.log(`wrote ${file.slice(root.length)}`);
  }
}
