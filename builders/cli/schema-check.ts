// The CLI's check of a document against the schema it claims to follow, before anything of it is shown.
// The schemas are those under schemas/, baked into cli.mjs by the build (builders/build/cli-artifact.ts);
// this module interprets the part of JSON Schema 2020-12 they use. A hand-written interpreter rather than
// ajv: cli.mjs imports nothing but Node's built-ins, and ajv's standalone code still needs its runtime
// helpers and ajv-formats' patterns bundled in, several times the size of this file. The build checks
// with ajv itself; test/cli-schema-check.test.ts holds the two to the same answers and fails when a
// schema starts using a keyword that is not interpreted here (SUPPORTED_KEYWORDS).

export type Schema = { readonly [keyword: string]: unknown };
/** Schemas by title ("MarketData"), each with its `$id` ("MarketData.schema.json") for `$ref`. */
export type SchemaSet = Readonly<Record<string, Schema>>;

/** Keywords that only describe: they never make a value invalid. */
export const ANNOTATIONS = ['$schema', '$id', 'title', 'description', 'examples', 'default', '$comment'] as const;

/** Every assertion keyword interpreted below; any other keyword in schemas/ fails the keyword test. */
export const SUPPORTED_KEYWORDS = [
  '$ref',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'exclusiveMinimum',
  'maximum',
] as const;

/** The formats the schemas use, with the rules ajv-formats applies to them. */
export const FORMATS: Readonly<Record<string, (s: string) => boolean>> = {
  date: (s) => isDate(s),
  // RFC 3339 §5.6 date-time, as ajv-formats reads it: a date, "T" (or a space), a time with seconds and
  // an offset; a leap second only at 23:59 UTC.
  'date-time': (s) => {
    const parts = s.split(/t|\s/i);
    return parts.length === 2 && isDate(parts[0]!) && isTime(parts[1]!);
  },
  // RFC 3986 URI with a scheme: ajv-formats' rule (NOT_URI_FRAGMENT, then URI below).
  uri: (s) => /\/|:/.test(s) && URI.test(s),
};

/**
 * ajv-formats' `uri` pattern (MIT; from jmrware.com/articles/2009/uri_regexp/URI_regex.html), copied as
 * it is so that both validators give one answer (test/cli-hostile-text.test.ts checks its cost is linear).
 */
// prettier-ignore
const URI = /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

function isTime(s: string): boolean {
  const m = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i.exec(s);
  if (!m || m[4] === undefined) return false;
  const [hour, min, sec] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const sign = m[5] === '-' ? -1 : 1;
  const [zoneHour, zoneMin] = [Number(m[6] ?? 0), Number(m[7] ?? 0)];
  if (zoneHour > 23 || zoneMin > 59) return false;
  if (hour <= 23 && min <= 59 && sec < 60) return true;
  const utcMin = min - zoneMin * sign;
  const utcHour = hour - zoneHour * sign - (utcMin < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMin === 59 || utcMin === -1) && sec < 61;
}

function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const typeOf = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number' && Number.isInteger(v)
        ? 'integer'
        : typeof v;

function hasType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const show = (v: unknown) => JSON.stringify(v);
const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

/**
 * The first way `value` fails the schema titled `name`, as "<JSON pointer> <reason>", or null when it
 * is valid. One reason is enough: the CLI prints one line and exits.
 */
export function schemaError(schemas: SchemaSet, name: string, value: unknown): string | null {
  const root = schemas[name];
  if (!root) throw new Error(`no schema named ${name} in cli.mjs`);
  const byId = new Map(Object.values(schemas).map((s) => [s.$id, s]));
  const check = (schema: Schema, v: unknown, path: string): string | null => {
    const at = path || '/';
    if (typeof schema.$ref === 'string') {
      const target = byId.get(schema.$ref.replace(/#.*$/, ''));
      if (!target) throw new Error(`schema $ref ${schema.$ref} names no schema in cli.mjs`);
      const error = check(target, v, path);
      if (error) return error;
    }
    if (schema.type !== undefined) {
      const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
      if (!types.some((t) => hasType(v, t))) return `${at} must be ${types.join(' or ')}, not ${typeOf(v)}`;
    }
    if ('const' in schema && !sameJson(v, schema.const)) return `${at} must be ${show(schema.const)}`;
    if (Array.isArray(schema.enum) && !schema.enum.some((e) => sameJson(v, e)))
      return `${at} must be one of ${schema.enum.map(show).join(', ')}`;
    if (typeof v === 'string') {
      const length = schema.minLength !== undefined || schema.maxLength !== undefined ? codePoints(v) : 0;
      if (typeof schema.minLength === 'number' && length < schema.minLength)
        return `${at} must have at least ${schema.minLength} characters`;
      if (typeof schema.maxLength === 'number' && length > schema.maxLength)
        return `${at} must have at most ${schema.maxLength} characters`;
      if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(v))
        return `${at} must match ${schema.pattern}`;
      if (typeof schema.format === 'string') {
        const valid = FORMATS[schema.format];
        if (valid && !valid(v)) return `${at} must be a ${schema.format}`;
      }
    }
    if (typeof v === 'number') {
      if (typeof schema.minimum === 'number' && v < schema.minimum) return `${at} must be >= ${schema.minimum}`;
      if (typeof schema.exclusiveMinimum === 'number' && v <= schema.exclusiveMinimum)
        return `${at} must be > ${schema.exclusiveMinimum}`;
      if (typeof schema.maximum === 'number' && v > schema.maximum) return `${at} must be <= ${schema.maximum}`;
    }
    if (Array.isArray(v)) {
      if (typeof schema.minItems === 'number' && v.length < schema.minItems)
        return `${at} must have at least ${schema.minItems} items`;
      if (typeof schema.maxItems === 'number' && v.length > schema.maxItems)
        return `${at} must have at most ${schema.maxItems} items`;
      if (typeof schema.items === 'object' && schema.items !== null)
        for (let i = 0; i < v.length; i++) {
          const error = check(schema.items as Schema, v[i], `${path}/${i}`);
          if (error) return error;
        }
    }
    if (typeOf(v) === 'object') {
      const object = v as Record<string, unknown>;
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      for (const key of (schema.required ?? []) as string[])
        if (!Object.hasOwn(object, key)) return `${at} must have the member ${show(key)}`;
      for (const [key, member] of Object.entries(object)) {
        const pointer = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        const own = Object.hasOwn(properties, key) ? properties[key] : undefined;
        if (own) {
          const error = check(own, member, pointer);
          if (error) return error;
        } else if (schema.additionalProperties === false) {
          return `${at} must not have the member ${show(key)}`;
        } else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) {
          const error = check(schema.additionalProperties as Schema, member, pointer);
          if (error) return error;
        }
      }
    }
    return null;
  };
  return check(root, value, '');
}
