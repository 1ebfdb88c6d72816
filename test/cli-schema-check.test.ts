// The CLI's own schema check (builders/cli/schema-check.ts) against ajv, which the build validates with: the same
// answer on every document a real build publishes and on a few hundred broken copies of them; every
// keyword and format used under schemas/ is one it interprets; and every document it reads fits the
// JSON bounds it parses within (builders/cli/json-body.ts).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { cliSchemas } from '../builders/build/cli-artifact.ts';
import { jsonBoundExceeded } from '../builders/cli/json-body.ts';
import { ANNOTATIONS, FORMATS, schemaError, SUPPORTED_KEYWORDS } from '../builders/cli/schema-check.ts';
import { CONTENT_DOCUMENTS } from '../builders/contract/pages.ts';
import { API_INDEX, DISCOVERY, type SchemaName } from '../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { createValidator, loadSchemas, SchemaValidationError } from '../builders/contract/schemas.ts';
import { sharedSite } from './helpers/site-dist.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

const SCHEMAS = loadSchemas();
const COMPACT = cliSchemas(SCHEMAS);
const ajv = createValidator(SCHEMAS);
const ajvValid = (name: SchemaName, value: unknown) => {
  try {
    ajv.validate(name, value);
    return true;
  } catch (error) {
    if (error instanceof SchemaValidationError) return false;
    throw error;
  }
};

/** Every document of a real build that claims a schema, with the schema it claims. */
const CLAIMED: Array<[string, SchemaName]> = [
  ...DEFAULT_SERVICE.resources.map((r) => [r.v1.path.slice(1), r.schema] as [string, SchemaName]),
  [API_INDEX.file, 'ApiIndex'],
  ...Object.values(CONTENT_DOCUMENTS).flatMap((d) => (d.schema ? [[d.file, d.schema] as [string, SchemaName]] : [])),
];

/** Broken copies of a document: each member (and each member of its first array item) removed, retyped, added to. */
function mutations(doc: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  const vary = (object: Record<string, unknown>, put: (changed: Record<string, unknown>) => unknown) => {
    for (const key of Object.keys(object)) {
      const { [key]: _removed, ...without } = object;
      out.push(put(without));
      for (const value of [null, 'x', '', 1.5, -1, 0, [], {}, true, '2026-13-40', 'not a uri'])
        out.push(put({ ...object, [key]: value }));
    }
    out.push(put({ ...object, unexpected: 1 }));
  };
  vary(doc, (changed) => changed);
  for (const [key, value] of Object.entries(doc)) {
    if (!Array.isArray(value) || typeof value[0] !== 'object' || value[0] === null) continue;
    vary(value[0] as Record<string, unknown>, (changed) => ({ ...doc, [key]: [changed, ...value.slice(1)] }));
    out.push({ ...doc, [key]: [] });
  }
  return out;
}

describe("the CLI's schema check", () => {
  const site = sharedSite();

  it('accepts every document a real build publishes, as ajv does', async () => {
    for (const [file, schema] of CLAIMED) {
      const doc = await site.json(file);
      expect(ajvValid(schema, doc), file).toBe(true);
      expect(schemaError(COMPACT, schema, doc), file).toBeNull();
    }
  });

  it('gives the answer ajv gives on hundreds of broken copies of them', async () => {
    let refused = 0;
    for (const [file, schema] of CLAIMED) {
      for (const broken of mutations(await site.json(file))) {
        const valid = ajvValid(schema, broken);
        const error = schemaError(COMPACT, schema, broken);
        expect(error === null, `${file} ${JSON.stringify(broken).slice(0, 300)}: ${error}`).toBe(valid);
        if (!valid) refused++;
      }
    }
    expect(refused).toBeGreaterThan(500);
  });

  it('checks each format as ajv-formats does', () => {
    const full = new Ajv2020({ strict: true });
    addFormats(full);
    const samples = [
      '2026-11-23',
      '2026-02-29',
      '2024-02-29',
      '2026-1-01',
      '2026-11-23T00:00:00.000-05:00',
      '2026-11-23T14:03:07.512345Z',
      '2026-11-23t14:03:07z',
      '2026-11-23T24:00:00Z',
      '2026-11-23T14:03:07',
      '2026-11-23T14:03:07+5:00',
      '2026-11-23T14:03:07+0500',
      '2026-11-23T14:03:07+05',
      '2026-11-23 14:03:07Z',
      '2026-11-23T14:03:60Z',
      '2026-12-31T23:59:60Z',
      '2026-12-31T18:59:60-05:00',
      '2026-11-23T14:03:07+24:00',
      'https://ada.example.org/writings/a?x=1#y',
      'http://127.0.0.1:8080/',
      'mailto:ada@example.org',
      'urn:isbn:0451450523',
      '/relative/path',
      'https://exa mple.org/',
      'https://example.org/caf\u00e9',
      'https://example.org/%zz',
      'http://exa[mple.org/',
      'http://[::1]:8080/',
      'https://a.example/c#d#e',
      'https://a.example/?q=[1]',
      'x:',
      'not a uri',
      '',
    ];
    for (const format of Object.keys(FORMATS)) {
      const check = full.compile({ type: 'string', format });
      for (const sample of samples)
        expect(FORMATS[format]!(sample), `${format} ${JSON.stringify(sample)}`).toBe(check(sample));
    }
  });

  it('interprets every keyword and format that schemas/ uses', () => {
    const known = new Set<string>([...SUPPORTED_KEYWORDS, ...ANNOTATIONS]);
    const unknown = new Set<string>();
    const formats = new Set<string>();
    const walk = (schema: Record<string, unknown>) => {
      for (const [keyword, value] of Object.entries(schema)) {
        if (!known.has(keyword)) unknown.add(keyword);
        if (keyword === 'format') formats.add(String(value));
        if (keyword === 'properties')
          for (const member of Object.values(value as Record<string, Record<string, unknown>>)) walk(member);
        else if ((keyword === 'items' || keyword === 'additionalProperties') && typeof value === 'object')
          walk(value as Record<string, unknown>);
      }
    };
    for (const schema of SCHEMAS.values()) walk(schema);
    expect([...unknown]).toEqual([]);
    expect([...formats].filter((f) => !(f in FORMATS))).toEqual([]);
  });

  it('needs none of the descriptions: cli.mjs carries the schemas without them, member names kept', () => {
    const annotations: string[] = [];
    const walk = (schema: Record<string, unknown>, at: string) => {
      for (const [keyword, value] of Object.entries(schema)) {
        if (keyword !== '$id' && (ANNOTATIONS as readonly string[]).includes(keyword))
          annotations.push(`${at}/${keyword}`);
        if (keyword === 'properties')
          for (const [name, member] of Object.entries(value as Record<string, Record<string, unknown>>))
            walk(member, `${at}/properties/${name}`);
        else if (keyword === 'items' && typeof value === 'object')
          walk(value as Record<string, unknown>, `${at}/items`);
      }
    };
    for (const [title, schema] of Object.entries(COMPACT)) walk(schema, title);
    expect(annotations).toEqual([]);
    // Members named like annotations stay: ProblemDetails' "title", ApiIndex's "description".
    expect(Object.keys(COMPACT.ProblemDetails!.properties as object)).toContain('title');
    expect(COMPACT.ApiIndex!.required).toContain('description');
    expect(JSON.stringify(COMPACT).length).toBeLessThan(JSON.stringify(Object.fromEntries(SCHEMAS)).length / 2);
  });

  it('every JSON document the CLI reads from a real build fits the bounds it parses within', async () => {
    const files = [...CLAIMED.map(([file]) => file), DISCOVERY.openapi.file, DISCOVERY.apiCatalog.file];
    for (const file of files) expect(jsonBoundExceeded(await site.read(file)), file).toBeNull();
  });
});
