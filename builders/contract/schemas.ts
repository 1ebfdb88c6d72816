// The JSON Schemas under schemas/ are the single source of truth for every payload: ajv validates with
// them here, and the OpenAPI document and the developer page are generated from the same files.
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';
import type { SchemaName, ServiceTables } from './service.ts';
import { validatorOf, type Validator } from './validation.ts';
import { repoUrl } from '../lib/repo-url.ts';

// Validation itself (the Validator, its error, the checks compiled at build time) is ajv-free, for the Worker.
export { compiledValidator, SchemaValidationError, type CompiledCheck, type Validator } from './validation.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under some bundlers.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

// The same for ajv's standalone code generator.
const standaloneCode = ((standaloneModule as unknown as { default?: unknown }).default ?? standaloneModule) as (
  ajv: Ajv2020,
  refsOrFunc?: Record<string, string>,
) => string;

export const SCHEMAS_DIR = repoUrl('schemas/', import.meta.url);
/** The datasets' folders: a dataset may keep its payload's schema beside its code (docs/architecture.md). */
export const DATASETS_DIR = repoUrl('builders/datasets/', import.meta.url);

export type JsonSchema = Record<string, unknown> & { $id: string; title: string };

/** The schema files of `dir`, and of every folder directly under `datasets` (a dataset's own), sorted by name. */
function schemaFiles(dir: URL, datasets: URL | null): URL[] {
  const own = (folder: URL) =>
    readdirSync(folder)
      .filter((f) => f.endsWith('.schema.json'))
      .sort()
      .map((f) => new URL(f, folder));
  const folders =
    datasets === null
      ? []
      : readdirSync(datasets, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => e.name)
          .sort()
          .map((name) => new URL(`${name}/`, datasets));
  return [dir, ...folders].flatMap(own);
}

/**
 * Every schema file, keyed by its title, for one deployment. The committed files are written for the
 * defaults (MON-USD, America/Toronto): a deployment with another product or zone (MARKET_PRODUCT,
 * CALENDAR_TIME_ZONE) gets them with its own in every `const` and description, so that what ajv
 * checks, the OpenAPI document and the developer page all say the configured values. With the
 * defaults, the files are returned as they are. Two files with one title are a mistake, named.
 */
export function loadSchemas(
  service?: Pick<ServiceTables, 'resources'>,
  dir: URL = SCHEMAS_DIR,
  datasets: URL | null = DATASETS_DIR,
): Map<string, JsonSchema> {
  const schemas = new Map<string, JsonSchema>();
  const from = new Map<string, string>();
  for (const file of schemaFiles(dir, datasets)) {
    const text = specialise(readFileSync(file, 'utf8'), service);
    const schema = JSON.parse(text) as JsonSchema;
    if (from.has(schema.title))
      throw new Error(`schema title ${schema.title} is in both ${from.get(schema.title)} and ${file.pathname}`);
    from.set(schema.title, file.pathname);
    schemas.set(schema.title, schema);
  }
  return schemas;
}

/**
 * The defaults appear in the files only as whole JSON string values or inside descriptions; both names
 * are unambiguous (a product id, an IANA zone), so a textual substitution is exact. With
 * MARKET_PRODUCT=off the market schemas still load (ajv needs no gaps), but nothing publishes them.
 */
function specialise(text: string, service: Pick<ServiceTables, 'resources'> | undefined): string {
  let out = text;
  for (const resource of service?.resources ?? [])
    for (const [stock, own] of Object.entries(resource.schemaWords ?? {}))
      if (own !== stock) out = out.replaceAll(stock, own);
  return out;
}

export interface ValidatorOptions {
  /**
   * Check each schema against the JSON Schema 2020-12 meta-schema first (default true). The gateway
   * skips it: compiling the meta-schema was a quarter of its start time, and the same committed files
   * are checked by every build and by the tests.
   */
  checkSchemas?: boolean;
}

/**
 * The validators made so far in this process, by the schemas' text and the meta-schema check. A program
 * makes one, but the tests run dozens of builds and gateways in one process, each calling this with the
 * same schemas: compiling them with ajv afresh each time was seconds of CPU. A validator keeps nothing
 * from one call to the next (a check's errors are read as soon as it has run), so one per schema set
 * serves every caller. Bounded: past the bound it starts over.
 */
const MADE = new Map<string, Validator>();
const MADE_BOUND = 32;

export function createValidator(
  schemas: Map<string, JsonSchema> = loadSchemas(),
  options: ValidatorOptions = {},
): Validator {
  const checkSchemas = options.checkSchemas ?? true;
  const key = JSON.stringify([checkSchemas, ...schemas]);
  let validator = MADE.get(key);
  if (validator === undefined) {
    // A copy: the caller's schemas may change afterwards, the validator others share must not.
    const own = new Map([...schemas].map(([name, schema]) => [name, structuredClone(schema)]));
    const ajv = newAjv(checkSchemas);
    for (const schema of own.values()) ajv.addSchema(schema);
    validator = validatorOf((name) => {
      const schema = own.get(name);
      return schema && ajv.getSchema(schema.$id);
    });
    if (MADE.size >= MADE_BOUND) MADE.clear();
    MADE.set(key, validator);
  }
  return validator;
}

function newAjv(checkSchemas: boolean, code?: { source: true; esm: true }): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: checkSchemas, ...(code && { code }) });
  addFormats(ajv);
  return ajv;
}

/**
 * The validators as the source of an ES module, one export per schema (named by its title), for a
 * runtime that forbids compiling code from strings: ajv builds each check with `new Function`, which
 * Cloudflare Workers refuse ("Code generation from strings disallowed"), so the Worker's bundle imports
 * checks written here at build time (ajv's standalone code, gateway/worker/deployment.ts) and never ajv's compiler.
 */
export function standaloneValidators(schemas: Map<string, JsonSchema>): string {
  const ajv = newAjv(true, { source: true, esm: true });
  for (const schema of schemas.values()) ajv.addSchema(schema);
  const exports = Object.fromEntries([...schemas.values()].map((s) => [s.title, s.$id]));
  return standaloneCode(ajv, exports);
}
