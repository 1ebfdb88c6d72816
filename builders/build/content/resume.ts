// The owner's optional site/resume.json: a JSON Resume document (jsonresume.org, the schema as installed), checked
// against the schema the JSON Resume project publishes on the npm registry (@jsonresume/schema), never a
// copy of it. Reading and judging are here; what is published of it (no phone, no references unless the
// owner opts in) is `publishedResume`. A mistake is a ContentError naming resume.json, the JSON pointer of
// the first fault and what was expected (docs/site.md#resumejson): the build exits 2.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ContentError } from '../../lib/errors.ts';
import { jsonBoundExceeded } from '../../lib/json-bound.ts';
import { isPublishableLink } from './sanitize.ts';
import { missingDate } from './calendar-date.ts';

export const RESUME_FILE = 'resume.json';

// ajv-formats is CommonJS; its default export arrives wrapped under some bundlers.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv,
) => Ajv;

/** A date as JSON Resume writes it: a year, a year and month, or a whole date (`2014`, `2014-06`, `2014-06-29`). */
export type ResumeDate = string;

interface Dated {
  startDate?: ResumeDate;
  endDate?: ResumeDate;
}

/** The parts of a JSON Resume document the site shows; every field is optional, others are kept as they are. */
export interface Resume {
  basics?: {
    name?: string;
    label?: string;
    image?: string;
    email?: string;
    phone?: string;
    url?: string;
    summary?: string;
    location?: { address?: string; postalCode?: string; city?: string; countryCode?: string; region?: string };
    profiles?: Array<{ network?: string; username?: string; url?: string }>;
  };
  work?: Array<
    Dated & {
      name?: string;
      location?: string;
      description?: string;
      position?: string;
      url?: string;
      summary?: string;
      highlights?: string[];
    }
  >;
  volunteer?: Array<
    Dated & { organization?: string; position?: string; url?: string; summary?: string; highlights?: string[] }
  >;
  education?: Array<
    Dated & {
      institution?: string;
      url?: string;
      area?: string;
      studyType?: string;
      score?: string;
      courses?: string[];
    }
  >;
  awards?: Array<{ title?: string; date?: ResumeDate; awarder?: string; summary?: string }>;
  certificates?: Array<{ name?: string; date?: ResumeDate; url?: string; issuer?: string }>;
  publications?: Array<{ name?: string; publisher?: string; releaseDate?: ResumeDate; url?: string; summary?: string }>;
  skills?: Array<{ name?: string; level?: string; keywords?: string[] }>;
  languages?: Array<{ language?: string; fluency?: string }>;
  interests?: Array<{ name?: string; keywords?: string[] }>;
  references?: Array<{ name?: string; reference?: string }>;
  projects?: Array<
    Dated & {
      name?: string;
      description?: string;
      highlights?: string[];
      keywords?: string[];
      url?: string;
      roles?: string[];
      entity?: string;
      type?: string;
    }
  >;
  meta?: { canonical?: string; version?: string; lastModified?: string; publish?: unknown };
  [key: string]: unknown;
}

/** What the owner may opt in to publishing (`meta.publish`); both are left out by default. */
export const OPT_IN_FIELDS = ['phone', 'references'] as const;
export type OptInField = (typeof OPT_IN_FIELDS)[number];

/** The owner's document as validated, and what of it the owner opted in to publishing. */
export interface LoadedResume {
  document: Resume;
  optIn: ReadonlySet<OptInField>;
}

const require = createRequire(import.meta.url);

/** The JSON Resume schema as its publisher ships it (draft-07, formats `uri` and `email`). */
export function resumeSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(require.resolve('@jsonresume/schema/schema.json'), 'utf8')) as Record<string, unknown>;
}

/** The version of the JSON Resume schema the build judges by: the installed package's, which the docs name. */
export const RESUME_SCHEMA_VERSION = (
  JSON.parse(readFileSync(require.resolve('@jsonresume/schema/package.json'), 'utf8')) as { version: string }
).version;

let compiled: ValidateFunction | undefined;

/** The format every date of the document must meet beyond the schema's pattern: a day that exists. */
const CALENDAR_DATE = 'calendar-date';

/**
 * The schema with its one date definition (`iso8601`, which every date field refers to) also asking for a
 * date of the calendar: its pattern lets `2022-13` and `2015-02-30` through, and a page would publish them.
 */
function withCalendarDates(schema: Record<string, unknown>): Record<string, unknown> {
  const definitions = (schema.definitions ?? {}) as Record<string, Record<string, unknown>>;
  if (definitions.iso8601 === undefined) throw new Error('the JSON Resume schema has no iso8601 definition');
  return { ...schema, definitions: { ...definitions, iso8601: { ...definitions.iso8601, format: CALENDAR_DATE } } };
}

/**
 * The schema's check, compiled once per process. Ajv's default class is draft-07, the schema's own draft;
 * `verbose` keeps each fault's schema, whose description says what a date looks like. `strict: false`:
 * the schema uses `$schema` as a property name and annotations ajv's strict mode does not know.
 */
function validate(data: unknown): ErrorObject | null {
  if (compiled === undefined) {
    const ajv = new Ajv({ allErrors: false, verbose: true, strict: false });
    addFormats(ajv);
    ajv.addFormat(CALENDAR_DATE, { type: 'string', validate: (text: string) => missingDate(text) === null });
    compiled = ajv.compile(withCalendarDates(resumeSchema()));
  }
  return compiled(data) ? null : (compiled.errors?.[0] ?? null);
}

/** "what was expected" of one ajv fault, in words the owner knows. */
function expected(error: ErrorObject): string {
  const schema = (error.parentSchema ?? {}) as { description?: string; pattern?: string };
  switch (error.keyword) {
    case 'pattern':
      // The schema's dates share one definition whose description names the forms (`2014-06-29 or 2023-04`).
      return schema.description !== undefined
        ? `expected ${schema.description.replace(/\.$/, '')}`
        : `expected text matching ${String(error.params.pattern)}`;
    case 'format':
      if (error.params.format === CALENDAR_DATE)
        return `expected a day of the calendar: ${missingDate(String(error.data)) ?? 'it does not exist'}`;
      return `expected ${error.params.format === 'uri' ? 'an absolute URL' : `a valid ${String(error.params.format)}`}`;
    case 'type':
      return `expected ${String(error.params.type)}`;
    case 'required':
      return `expected a "${String(error.params.missingProperty)}" field`;
    default:
      return `expected it to ${error.message ?? 'match the JSON Resume schema'}`;
  }
}

/** A JSON pointer (RFC 6901) segment. */
const pointerSegment = (key: string | number) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

/** The value quoted in a refusal, short and on one line (ContentError makes it one line). */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Every link the page would make of the document: a URL of another scheme (`javascript:`) passes the
 * schema's `uri` format, and on a host without headers it would run when clicked. Refused, as the
 * profile's links are (docs/site.md#what-content-may-contain).
 */
function checkLinks(resume: Resume): void {
  const check = (url: unknown, pointer: string) => {
    if (url === undefined || url === '') return;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url) || !isPublishableLink(url))
      throw new ContentError(RESUME_FILE, `${pointer} ${quoted(url)}: expected an http: or https: URL`);
  };
  check(resume.basics?.url, '/basics/url');
  resume.basics?.profiles?.forEach((p, i) => check(p.url, `/basics/profiles/${i}/url`));
  for (const section of ['work', 'volunteer', 'education', 'certificates', 'publications', 'projects'] as const)
    (resume[section] as Array<{ url?: unknown }> | undefined)?.forEach((item, i) =>
      check(item.url, `/${section}/${i}/url`),
    );
}

/** `meta.publish`: absent, or a list of the opt-in fields. */
function optInOf(resume: Resume): Set<OptInField> {
  const publish = resume.meta?.publish;
  if (publish === undefined) return new Set();
  const known = (v: unknown): v is OptInField => (OPT_IN_FIELDS as readonly unknown[]).includes(v);
  if (!Array.isArray(publish) || !publish.every(known))
    throw new ContentError(
      RESUME_FILE,
      `/meta/publish ${quoted(publish)}: expected a list of ${OPT_IN_FIELDS.map((f) => `"${f}"`).join(' and/or ')}`,
    );
  return new Set(publish);
}

/** Judges the text of resume.json: the owner's document and what they opted in to, or a ContentError. */
export function parseResume(text: string): LoadedResume {
  const bound = jsonBoundExceeded(text);
  if (bound !== null) throw new ContentError(RESUME_FILE, `${bound}; a résumé needs far less`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ContentError(RESUME_FILE, `is not JSON: ${(error as Error).message}`);
  }
  const fault = validate(data);
  if (fault !== null) {
    const pointer =
      fault.keyword === 'required'
        ? `${fault.instancePath}/${pointerSegment(String(fault.params.missingProperty))}`
        : fault.instancePath || '/';
    const value = fault.keyword === 'required' ? '' : ` ${quoted(fault.data)}`;
    throw new ContentError(RESUME_FILE, `${pointer}${value}: ${expected(fault)} (JSON Resume schema)`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new ContentError(RESUME_FILE, '/: expected an object (JSON Resume schema)');
  const document = data as Resume;
  checkLinks(document);
  return { document, optIn: optInOf(document) };
}

/**
 * What /resume.json publishes: the document as validated, less the phone number and the references
 * unless the owner listed them in `meta.publish`. The pages show the same (they render this, not the file).
 */
export function publishedResume({ document, optIn }: LoadedResume): Resume {
  const out: Resume = { ...document };
  if (!optIn.has('phone') && document.basics?.phone !== undefined) {
    const { phone: _phone, ...basics } = document.basics;
    out.basics = basics;
  }
  if (!optIn.has('references')) delete out.references;
  return out;
}
