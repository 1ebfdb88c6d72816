// The site's own content under site/: profile, skills and writings (Markdown with YAML front matter).
// Parsing is pure (text in, values out); only loadContent touches the file system. A writing with
// `draft: true` is dropped here, at the edge, so no generator downstream can publish it by mistake.
import { readdirSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { SITE_FILE_URL } from '../../lib/config.ts';

/** site/, found through the site configuration file so that it resolves from the bundled build too. */
export const SITE_DIR = new URL('./', SITE_FILE_URL);

export interface Link {
  label: string;
  url: string;
}

export interface Profile {
  name: string;
  location: string;
  links: Link[];
  /** The "About" text, Markdown. */
  about: string;
}

export interface SkillGroup {
  group: string;
  skills: Array<{ name: string; note?: string }>;
}

export interface Writing {
  slug: string;
  title: string;
  /** YYYY-MM-DD. */
  date: string;
  summary: string;
  /** The body, Markdown, without its title. */
  body: string;
}

export interface SiteContent {
  profile: Profile;
  skills: SkillGroup[];
  /** Published writings only, newest first. */
  writings: Writing[];
}

export class ContentError extends Error {
  override readonly name = 'ContentError';
}

/** Splits `---\nyaml\n---\nbody` into its parts. */
export function splitFrontMatter(text: string, file: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new ContentError(`${file}: missing front matter (--- ... ---)`);
  const data = parseYaml(match[1]!) as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new ContentError(`${file}: front matter is not a mapping`);
  return { data: data as Record<string, unknown>, body: match[2]!.trim() };
}

function text(data: Record<string, unknown>, key: string, file: string): string {
  const value = data[key];
  // YAML reads an unquoted 2026-03-14 as a string with the default (core) schema; accept only strings.
  if (typeof value !== 'string' || value.trim() === '')
    throw new ContentError(`${file}: "${key}" must be a non-empty string`);
  if (/[\r\n]/.test(value))
    throw new ContentError(`${file}: "${key}" must fit on one line (Markdown twins put it in front matter)`);
  return value.trim();
}

export function parseProfile(source: string, file = 'profile.md'): Profile {
  const { data, body } = splitFrontMatter(source, file);
  const links = Array.isArray(data.links) ? data.links : [];
  return {
    name: text(data, 'name', file),
    location: text(data, 'location', file),
    links: links.map((l, i) => {
      const entry = (l ?? {}) as Record<string, unknown>;
      return { label: text(entry, 'label', `${file} links[${i}]`), url: text(entry, 'url', `${file} links[${i}]`) };
    }),
    about: body,
  };
}

export function parseSkills(source: string, file = 'skills.yaml'): SkillGroup[] {
  const data = parseYaml(source) as unknown;
  if (!Array.isArray(data)) throw new ContentError(`${file}: expected a list of groups`);
  return data.map((g, i) => {
    const group = (g ?? {}) as Record<string, unknown>;
    const where = `${file} [${i}]`;
    const skills = Array.isArray(group.skills) ? group.skills : [];
    return {
      group: text(group, 'group', where),
      skills: skills.map((s, j) => {
        const skill = (s ?? {}) as Record<string, unknown>;
        const name = text(skill, 'name', `${where}.skills[${j}]`);
        return skill.note === undefined ? { name } : { name, note: text(skill, 'note', `${where}.skills[${j}]`) };
      }),
    };
  });
}

/** A writing, or null when it is a draft. The slug is the file name without `.md`. */
export function parseWriting(source: string, file: string): Writing | null {
  const { data, body } = splitFrontMatter(source, file);
  if (data.draft === true) return null;
  if (data.draft !== undefined && data.draft !== false)
    throw new ContentError(`${file}: "draft" must be true or false`);
  const slug = file.replace(/^.*\//, '').replace(/\.md$/, '');
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(slug)) throw new ContentError(`${file}: file name must be a lower-case slug`);
  const date = text(data, 'date', file);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) {
    throw new ContentError(`${file}: "date" must be YYYY-MM-DD`);
  }
  return { slug, title: text(data, 'title', file), date, summary: text(data, 'summary', file), body };
}

/** Newest first; equal dates by slug so that the order never depends on the file system. */
export function sortWritings(writings: Writing[]): Writing[] {
  return [...writings].sort((a, b) => (a.date === b.date ? a.slug.localeCompare(b.slug) : a.date < b.date ? 1 : -1));
}

export function loadContent(dir: URL = SITE_DIR): SiteContent {
  const read = (name: string) => readFileSync(new URL(name, dir), 'utf8');
  const writingsDir = new URL('writings/', dir);
  const writings = readdirSync(writingsDir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => parseWriting(readFileSync(new URL(f, writingsDir), 'utf8'), `writings/${f}`))
    .filter((w): w is Writing => w !== null);
  return {
    profile: parseProfile(read('profile.md')),
    skills: parseSkills(read('skills.yaml')),
    writings: sortWritings(writings),
  };
}
