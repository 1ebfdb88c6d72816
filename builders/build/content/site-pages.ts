// What site.json says of the pages beyond the site's identity (docs/site.md#site-content-site): the links of
// every page's header, in the owner's order and words, and the Writings page's description (its meta, share
// picture and feeds). Pure: the parsed site file in, the settings out; a mistake is a ContentError naming
// site.json and the field (the build exits 2 before any upstream is asked).
import type { SiteFile } from '../../lib/config.ts';
import { ContentError } from '../../lib/errors.ts';
import { PAGES } from '../../contract/pages.ts';
import type { HeaderLink, SitePages } from '../artifact.ts';

export type { HeaderLink, SitePages };

const FILE = 'site.json';
/** The pages a header may link: every page the build publishes under a fixed path. */
const LINKABLE = [PAGES.home, PAGES.writings, PAGES.resume, PAGES.skills, PAGES.developers].map((p) => p.path);
const MAX_HEADER_LINKS = 8;
const MAX_LABEL = 40;
const MAX_DESCRIPTION = 300;

/**
 * A site file written before these fields: the pages' own titles, the résumé among them when there is one.
 * The stock site's words are in its site.json.
 */
const DEFAULT_HEADER: HeaderLink[] = [
  { label: 'Home', path: PAGES.home.path },
  { label: 'Writings', path: PAGES.writings.path },
  { label: 'Résumé', path: PAGES.resume.path },
  { label: 'Skills', path: PAGES.skills.path },
  { label: 'Developers', path: PAGES.developers.path },
];

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function oneLine(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw new ContentError(FILE, `"${field}" must be a non-empty string`);
  if (/[\r\n]/.test(value)) throw new ContentError(FILE, `"${field}" must fit on one line`);
  const text = value.trim();
  if ([...text].length > max)
    throw new ContentError(FILE, `"${field}" is ${[...text].length} characters long, more than ${max}; shorten it`);
  return text;
}

function headerOf(value: unknown, hasResume: boolean): HeaderLink[] {
  if (value === undefined) return DEFAULT_HEADER.filter((l) => hasResume || l.path !== PAGES.resume.path);
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_HEADER_LINKS)
    throw new ContentError(FILE, `"nav" must be a list of 1 to ${MAX_HEADER_LINKS} links ({"label": …, "path": …})`);
  const links = value.map((entry, i): HeaderLink => {
    const where = `nav[${i}]`;
    if (!isMapping(entry)) throw new ContentError(FILE, `"${where}" must be an object with "label" and "path"`);
    const unknown = Object.keys(entry).find((key) => key !== 'label' && key !== 'path');
    if (unknown !== undefined)
      throw new ContentError(
        FILE,
        `"${where}" has no field ${JSON.stringify(unknown.slice(0, 40))}; the fields are label, path`,
      );
    const label = oneLine(entry.label, `${where}.label`, MAX_LABEL);
    const path = oneLine(entry.path, `${where}.path`, 100);
    if (!LINKABLE.includes(path))
      throw new ContentError(
        FILE,
        `"${where}.path" ${JSON.stringify(path.slice(0, 60))} is not a page of the site; the header links ${LINKABLE.join(', ')}`,
      );
    return { label, path };
  });
  const paths = links.map((l) => l.path);
  const twice = paths.find((p, i) => paths.indexOf(p) !== i);
  if (twice !== undefined) throw new ContentError(FILE, `"nav" links ${twice} twice; keep one`);
  // Listed in the stock site.json, the résumé shows once the owner adds site/resume.json.
  return links.filter((l) => hasResume || l.path !== PAGES.resume.path);
}

function writingsDescriptionOf(value: unknown, site: SiteFile): string {
  if (value === undefined) return `Writings by ${site.author}.`;
  if (!isMapping(value)) throw new ContentError(FILE, '"writings" must be an object ({"description": "…"})');
  const unknown = Object.keys(value).find((key) => key !== 'description');
  if (unknown !== undefined)
    throw new ContentError(
      FILE,
      `"writings" has no field ${JSON.stringify(unknown.slice(0, 40))}; the field is description`,
    );
  return value.description === undefined
    ? `Writings by ${site.author}.`
    : oneLine(value.description, 'writings.description', MAX_DESCRIPTION);
}

/** site.json's `nav` and `writings` as the pages use them; `hasResume`: the site publishes /resume. */
export function sitePagesOf(site: SiteFile, hasResume: boolean): SitePages {
  const fields = site as unknown as Record<string, unknown>;
  return { header: headerOf(fields.nav, hasResume), writingsDescription: writingsDescriptionOf(fields.writings, site) };
}
