// Generates builders/contract/payload-types.ts, the TypeScript types of the payloads, from schemas/ with
// json-schema-to-typescript, so that the schemas stay the one source of truth: the code imports these
// types instead of declaring its own. `npm run generate:types` writes the file; a test fails when it is
// stale (test/payload-types.test.ts).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import * as prettier from 'prettier';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SCHEMAS = `${root}schemas/`;
export const TYPES_FILE = `${root}builders/contract/payload-types.ts`;

const BANNER = `// Generated from schemas/*.schema.json by builders/tools/payload-types.mjs (npm run generate:types): do not edit.
// A schema is the source of truth; change it and regenerate.`;

/** The file's text, as the generator would write it now. */
export async function payloadTypes() {
  const parts = [];
  for (const file of (await readdir(SCHEMAS)).filter((f) => f.endsWith('.schema.json')).sort()) {
    const schema = JSON.parse(await readFile(SCHEMAS + file, 'utf8'));
    parts.push(
      await compile(schema, schema.title, {
        cwd: SCHEMAS,
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
  const text = `${BANNER}\n\n${parts.join('\n')}`;
  const config = await prettier.resolveConfig(TYPES_FILE);
  // Prettier looks for a plugin named by its package (.prettierrc.json) from the working folder up:
  // resolved from this file instead, the generator runs the same from any folder.
  const plugins = config?.plugins?.map((plugin) =>
    typeof plugin === 'string' ? fileURLToPath(import.meta.resolve(plugin)) : plugin,
  );
  return prettier.format(text, { ...config, ...(plugins && { plugins }), filepath: TYPES_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(TYPES_FILE, await payloadTypes());
  console.log(`wrote ${TYPES_FILE.slice(root.length)}`);
}
