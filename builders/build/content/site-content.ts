// The site's own content under site/: profile, skills, the owner's projects and writings (Markdown with
// YAML front matter). Parsing is pure (text in, values out); only loadContent touches the file system. A writing with
// `draft: true` is dropped here, at the edge, so no generator downstream can publish it by mistake.
// Every mistake in the content is a ContentError naming the file and what to fix (the build exits 2):
// the owner's, never a bug. What content may hold is in docs/site.md#what-content-may-contain.
import { readdirSync, readFileSync, statSync, type Stats } from 'node:fs';
import { readSiteFile, SITE_FILE_URL, type SiteFile } from '../../lib/config.ts';
import { firstUnseen } from '../../lib/text/unicode.ts';
import { ContentError } from '../../lib/errors.ts';
import { markdownBoundExceeded, renderMarkdown } from './markdown.ts';
import { isPublishableLink } from './sanitize.ts';
import { parseContentYaml } from './yaml.ts';
import { parseResume, RESUME_FILE, type LoadedResume, type Resume } from './resume.ts';
import { sitePagesOf, type SitePages } from './site-pages.ts';
import { missingDate } from './calendar-date.ts';
import { avatarSource, resumeImageSource, type AvatarSource } from './avatar-file.ts';
import { assertInsideSite, siteRoot } from './site-files.ts';
import { coverPicture, writingPictures, type LocalPicture, type WritingPicture } from './writing-pictures.ts';
import { DEFAULT_TIME_ZONE } from '../../lib/service-defaults.ts';
import { DateTime } from 'luxon';

export { ContentError };

/** site/, found through the site configuration file so that it resolves from the bundled build too. */
export const SITE_DIR = new URL('./', SITE_FILE_URL);

/** Far above any page of the site (the stock writings are under 3 kB): a bound on what the build reads. */
export const MAX_CONTENT_FILE_BYTES = 1024 * 1024;

export interface Link {
  label: string;
  url: string;
}

export interface Profile {
  name: string;
  location: string;
  /** `avatar:` as written: a picture file in site/, or `github` (docs/site.md#the-owners-picture). */
  avatar?: string;
  links: Link[];
  /** The "About" text, Markdown. */
  about: string;
}

export interface SkillGroup {
  group: string;
  skills: Array<{ name: string; note?: string }>;
}

/** A project of site/projects.yaml: one the owner lists beside the GitHub ones (docs/site.md#projectsyaml). */
export interface OwnerProject {
  title: string;
  /** An absolute https: URL. */
  url: string;
  description: string | null;
}

export interface Writing {
  slug: string;
  title: string;
  /** YYYY-MM-DD. */
  date: string;
  summary: string;
  /** The body, Markdown, without its title. */
  body: string;
  /** `tags:` as written, each a slug (docs/site.md#tags); none when absent. */
  tags: string[];
  /** `image:` as written: the cover's file name beside the writing; null when none. */
  image: string | null;
  /** The cover, read and checked by loadContent (writing-pictures.ts): none from parseWriting alone. */
  cover: LocalPicture | null;
  /** Every picture its body shows, checked by loadContent (writing-pictures.ts): none from parseWriting alone. */
  pictures: WritingPicture[];
}

export interface SiteContent {
  profile: Profile;
  skills: SkillGroup[];
  /** site/projects.yaml's projects, in its order; none when the file is absent. */
  ownerProjects: OwnerProject[];
  /** Published writings only, newest first. */
  writings: Writing[];
  /** site/resume.json, when the owner has one (builders/build/content/resume.ts). */
  resume: LoadedResume | null;
  /** The owner's picture as profile.md names it: read and checked when a file, fetched by the build when `github`. */
  avatar: AvatarSource;
  /** What site.json says of the pages: the header's links, the Writings description (site-pages.ts). */
  pages: SitePages;
}

/** Splits `---\nyaml\n---\nbody` into its parts. */
export function splitFrontMatter(text: string, file: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match)
    throw new ContentError(file, 'missing front matter: start the file with a --- line, the fields, then ---');
  // The front matter starts on the file's second line.
  const data = parseContentYaml(match[1]!, file, 'front matter', 2);
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new ContentError(file, 'front matter is not a mapping of fields (name: value lines)');
  return { data: data as Record<string, unknown>, body: match[2]!.trim() };
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A field of `data` that must be a one-line, non-empty string; `field` names it as the owner wrote it. */
function text(data: Record<string, unknown>, key: string, file: string, field: string = key): string {
  const value = data[key];
  // YAML reads an unquoted 2026-03-14 as a string with the default (core) schema; accept only strings.
  if (typeof value !== 'string' || value.trim() === '')
    throw new ContentError(
      file,
      value === undefined ? `"${field}" is missing; add it` : `"${field}" must be a non-empty string`,
    );
  if (/[\r\n]/.test(value))
    throw new ContentError(file, `"${field}" must fit on one line (Markdown twins put it in front matter)`);
  return value.trim();
}

/** A one-line text of at most `max` characters. */
function bounded(data: Record<string, unknown>, key: string, file: string, field: string, max: number): string {
  const value = text(data, key, file, field);
  if ([...value].length > max)
    throw new ContentError(file, `"${field}" is ${[...value].length} characters long, more than ${max}; shorten it`);
  return value;
}

/** A list field of `data`: absent is empty; anything but a list is refused. */
function list(data: Record<string, unknown>, key: string, file: string, field: string = key): unknown[] {
  const value = data[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ContentError(file, `"${field}" must be a list (lines starting with "- ")`);
  return value;
}

/** A mapping item of a list field, named `field` in a refusal. */
function mapping(value: unknown, file: string, field: string): Record<string, unknown> {
  if (!isMapping(value)) throw new ContentError(file, `"${field}" must be a mapping of fields (name: value lines)`);
  return value;
}

/**
 * A link of the profile: an absolute http:, https: or mailto: URL, or a path on this site (`/writings`).
 * Anything else is refused, not dropped: a `javascript:` or `data:` URL passes a URI format check, and on
 * a host without headers it would run when clicked (docs/site.md#what-content-may-contain).
 */
function link(entry: Record<string, unknown>, file: string, field: string): string {
  const url = text(entry, 'url', file, `${field}.url`);
  const path = url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(url) && isPublishableLink(url);
  if (!(path || absolute) || /[\u0000-\u0020\u007f]/.test(url))
    throw new ContentError(
      file,
      `"${field}.url" ${JSON.stringify(url.slice(0, 80))} must be an http:, https: or mailto: URL, or a path on this site starting with /`,
    );
  // The published documents declare links as RFC 3986 URIs (schemas/, format "uri"): a character a URI
  // cannot hold unescaped (a template's `{version}`, a space, non-ASCII) is the owner's to fix here, not
  // a schema failure after the upstreams were asked.
  const stray = /[^A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]|%(?![0-9A-Fa-f]{2})/.exec(url);
  if (stray !== null)
    throw new ContentError(
      file,
      `"${field}.url" ${JSON.stringify(url.slice(0, 80))} is not a valid URL: ${JSON.stringify(stray[0])} has no place in one unescaped; write it percent-encoded (${percentEncoded(stray[0])})`,
    );
  return url;
}

/** `{` as `%7B`: how a URL carries a character it cannot hold. */
function percentEncoded(char: string): string {
  return char === '%' ? '%25' : encodeURIComponent(char);
}

export function parseProfile(source: string, file = 'profile.md'): Profile {
  const { data, body } = splitFrontMatter(source, file);
  return {
    name: bounded(data, 'name', file, 'name', TEXT_BOUNDS.name),
    location: bounded(data, 'location', file, 'location', TEXT_BOUNDS.location),
    ...(data.avatar === undefined || data.avatar === null ? {} : { avatar: text(data, 'avatar', file) }),
    links: list(data, 'links', file).map((l, i) => {
      const field = `links[${i}]`;
      const entry = mapping(l, file, field);
      return { label: text(entry, 'label', file, `${field}.label`), url: link(entry, file, field) };
    }),
    about: body,
  };
}

/** site/skills.yaml: the skills page, unless it is absent and the résumé lists skills. */
export const SKILLS_FILE = 'skills.yaml';

/**
 * The résumé's `skills` as the skills page's groups: each skill's name a group, its keywords the group's
 * skills (its level, with no keywords, the one skill); none when the résumé lists no skills.
 */
export function resumeSkillGroups(resume: Resume): SkillGroup[] {
  return (resume.skills ?? []).flatMap((skill) => {
    const group = skill.name?.trim();
    if (!group) return [];
    const keywords = (skill.keywords ?? []).map((k) => k.trim()).filter((k) => k !== '');
    const level = skill.level?.trim();
    return [
      { group, skills: keywords.length > 0 ? keywords.map((name) => ({ name })) : level ? [{ name: level }] : [] },
    ];
  });
}

export function parseSkills(source: string, file = 'skills.yaml'): SkillGroup[] {
  const data = parseContentYaml(source, file);
  if (!Array.isArray(data)) throw new ContentError(file, 'expected a list of groups (lines starting with "- group:")');
  return data.map((g, i) => {
    const where = `[${i}]`;
    const group = mapping(g, file, where);
    return {
      group: text(group, 'group', file, `${where}.group`),
      skills: list(group, 'skills', file, `${where}.skills`).map((s, j) => {
        const at = `${where}.skills[${j}]`;
        const skill = mapping(s, file, at);
        const name = text(skill, 'name', file, `${at}.name`);
        return skill.note === undefined ? { name } : { name, note: text(skill, 'note', file, `${at}.note`) };
      }),
    };
  });
}

/**
 * The longest text of each field a page, a feed or a share picture shows, in characters
 * (docs/site.md#how-long-a-text-may-be); a longer one is the owner's to shorten (exit 2).
 */
export const TEXT_BOUNDS = { name: 100, location: 100, writingTitle: 200, writingSummary: 500 } as const;

/** site/projects.yaml: the file, and its bounds (a home page of cards, not a catalogue). */
export const PROJECTS_FILE = 'projects.yaml';
export const MAX_OWNER_PROJECTS = 12;
export const MAX_PROJECT_TITLE = 100;
export const MAX_PROJECT_DESCRIPTION = 300;
/** The file's one field. */
const PROJECTS_FIELD = 'projects';

/** Refuses a field the format does not have: a misspelt `descripton` would otherwise vanish unseen. */
function onlyFields(entry: Record<string, unknown>, known: readonly string[], file: string, where: string): void {
  const unknown = Object.keys(entry).find((key) => !known.includes(key));
  if (unknown !== undefined)
    throw new ContentError(
      file,
      `${where === '' ? '' : `"${where}" `}has no field ${JSON.stringify(unknown.slice(0, 40))}; the fields are ${known.join(', ')}`,
    );
}

/**
 * site/projects.yaml: `projects:`, a list of `{title, url, description?}`, at most MAX_OWNER_PROJECTS. A URL
 * must be an absolute `https:` one (a card links to it from the home page); anything else is refused
 * naming the field, as profile.md's links are.
 */
export function parseOwnerProjects(source: string, file = PROJECTS_FILE): OwnerProject[] {
  const data = parseContentYaml(source, file);
  // A file of comments only is no projects.
  if (data === null || data === undefined) return [];
  if (!isMapping(data)) throw new ContentError(file, `expected a mapping with one field, ${PROJECTS_FIELD}: (a list)`);
  onlyFields(data, [PROJECTS_FIELD], file, '');
  const items = list(data, PROJECTS_FIELD, file);
  if (items.length > MAX_OWNER_PROJECTS)
    throw new ContentError(file, `"${PROJECTS_FIELD}" lists ${items.length} projects, more than ${MAX_OWNER_PROJECTS}`);
  return items.map((p, i) => {
    const where = `${PROJECTS_FIELD}[${i}]`;
    const entry = mapping(p, file, where);
    onlyFields(entry, ['title', 'url', 'description'], file, where);
    const title = bounded(entry, 'title', file, `${where}.title`, MAX_PROJECT_TITLE);
    const url = link(entry, file, where);
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!/^https:\/\//i.test(url) || parsed?.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '')
      throw new ContentError(
        file,
        `"${where}.url" ${JSON.stringify(url.slice(0, 80))} must be an absolute https: URL (https://host/path), without a user name`,
      );
    const description =
      entry.description === undefined || entry.description === null
        ? null
        : bounded(entry, 'description', file, `${where}.description`, MAX_PROJECT_DESCRIPTION);
    return { title, url, description };
  });
}

/** A writing's file name without `.md`: its slug, the last part of its URL. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A tag: the last part of its page's URL (`/writings/tags/<tag>`). */
const TAG = SLUG;
export const MAX_TAG_LENGTH = 32;
export const MAX_TAGS = 12;

/** `tags:`: at most MAX_TAGS slugs of 1 to MAX_TAG_LENGTH characters, each once. */
function tagsOf(data: Record<string, unknown>, file: string): string[] {
  const items = list(data, 'tags', file);
  if (items.length > MAX_TAGS)
    throw new ContentError(
      file,
      `"tags" lists ${items.length} tags, more than ${MAX_TAGS}; keep the ${MAX_TAGS} that matter`,
    );
  const tags = items.map((tag, i) => {
    const field = `tags[${i}]`;
    if (typeof tag !== 'string' || !TAG.test(tag) || tag.length > MAX_TAG_LENGTH)
      throw new ContentError(
        file,
        `"${field}" ${JSON.stringify(String(tag).slice(0, 40))} must be a tag of 1 to ${MAX_TAG_LENGTH} lower-case letters a-z, digits and single hyphens, such as data-pipelines`,
      );
    return tag;
  });
  const twice = tags.find((tag, i) => tags.indexOf(tag) !== i);
  if (twice !== undefined) throw new ContentError(file, `"tags" lists ${JSON.stringify(twice)} twice; list it once`);
  return tags;
}

/**
 * `date:`, as the date it names in the calendar's zone: `YYYY-MM-DD`, or a date and time (`2026-03-14T09:30`,
 * with an offset or not). A day the calendar does not have, or an offset other than the zone's at that
 * time, is the owner's to fix: the feeds and pages date a writing at midnight of its day in that zone.
 */
function dateOf(data: Record<string, unknown>, file: string, timeZone: string): string {
  const written = text(data, 'date', file);
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(
    written,
  );
  if (match === null)
    throw new ContentError(
      file,
      '"date" must be a date written YYYY-MM-DD (or YYYY-MM-DDTHH:MM with the zone\'s offset)',
    );
  const date = match[1]!;
  const missing = missingDate(date);
  if (missing !== null)
    throw new ContentError(file, `"date" ${JSON.stringify(written)} is not a day of the calendar: ${missing}; fix it`);
  const [hour, minute, second] = [match[2], match[3], match[4]].map((part) => Number(part ?? 0));
  if (hour! > 23 || minute! > 59 || second! > 59)
    throw new ContentError(file, `"date" ${JSON.stringify(written)} is not a time of the day; fix it`);
  const offset = match[5];
  if (offset !== undefined) {
    // The instant written, then the zone's offset at that instant: both readings of an hour that repeats
    // when the clocks go back hold, each with its own offset.
    const instant = DateTime.fromISO(`${date}T${match[2]}:${match[3]}:${match[4] ?? '00'}${offset}`, { setZone: true });
    const zoned = instant.setZone(timeZone);
    if (!instant.isValid || !zoned.isValid || zoned.offset !== instant.offset)
      throw new ContentError(
        file,
        `"date" ${JSON.stringify(written)} has the offset ${offset}, but ${timeZone} (the calendar's zone, CALENDAR_TIME_ZONE) is at ${zoned.isValid ? zoned.toFormat('ZZ') : 'another offset'} then; write the date alone (${date}) or with that offset`,
      );
  }
  return date;
}

/** A writing, or null when it is a draft. The slug is the file name without `.md`. */
export function parseWriting(source: string, file: string, timeZone: string = DEFAULT_TIME_ZONE): Writing | null {
  const { data, body } = splitFrontMatter(source, file);
  if (data.draft === true) return null;
  if (data.draft !== undefined && data.draft !== false) throw new ContentError(file, '"draft" must be true or false');
  const slug = file.replace(/^.*\//, '').replace(/\.md$/, '');
  if (!SLUG.test(slug))
    throw new ContentError(
      file,
      "the file name is the writing's URL and must be a lower-case slug: letters a-z, digits and single hyphens, such as my-first-post.md; rename it",
    );
  const date = dateOf(data, file, timeZone);
  const image = data.image === undefined || data.image === null ? null : text(data, 'image', file);
  return {
    slug,
    title: bounded(data, 'title', file, 'title', TEXT_BOUNDS.writingTitle),
    date,
    summary: bounded(data, 'summary', file, 'summary', TEXT_BOUNDS.writingSummary),
    body,
    tags: tagsOf(data, file),
    image,
    cover: null,
    pictures: [],
  };
}

/**
 * `text`, the whole of the content file `file`, holding no control character (ESC, BEL, NEL...) and no
 * invisible formatting character (U+202E...): the rule site.json's strings follow (builders/lib/text/unicode.ts), for
 * every line of the owner's words, front matter and body alike, since each reaches a page, a Markdown
 * twin, a feed or a terminal.
 */
export function ownerText(text: string, file: string): string {
  const bad = firstUnseen(text, true);
  if (bad === null) return text;
  const line = text.slice(0, bad.index).split('\n').length;
  throw new ContentError(file, `line ${line} contains ${bad.kind} (${bad.code}); remove it`);
}

/** Newest first; equal dates by slug so that the order never depends on the file system. */
export function sortWritings(writings: Writing[]): Writing[] {
  return [...writings].sort((a, b) => (a.date === b.date ? a.slug.localeCompare(b.slug) : a.date < b.date ? 1 : -1));
}

/**
 * The Markdown `body` of `file`, checked to render within bounds (markdown.ts, MARKDOWN_BOUNDS): Markdown
 * nested thousands deep (quotes within quotes, lists within lists) overflows the renderer's recursion or
 * takes minutes, which is the owner's text to flatten, not a bug. A stack overflow the line check let
 * through is the same mistake.
 */
function renderable(body: string, file: string): string {
  const exceeded = markdownBoundExceeded(body);
  if (exceeded !== null)
    throw new ContentError(file, `its Markdown nests too deeply to render: ${exceeded}; flatten it`);
  try {
    renderMarkdown(body);
  } catch (error) {
    if (error instanceof RangeError)
      throw new ContentError(
        file,
        'its Markdown nests too deeply to render (quotes, lists or emphasis within each other); flatten it',
      );
    throw error;
  }
  return body;
}

/**
 * Reads site/ (or `dir`): profile.md, skills.yaml, projects.yaml when there is one, and the writings under
 * writings/ (none when the folder is absent: git keeps no empty folder). Throws a ContentError for any file that is missing, too large or wrong.
 */
export function loadContent(
  dir: URL = SITE_DIR,
  site: SiteFile = readSiteFile(new URL('site.json', dir)),
  timeZone: string = DEFAULT_TIME_ZONE,
): SiteContent {
  const root = siteRoot(dir);
  const readBounded = (name: string, url: URL, size: Stats) => {
    if (!size.isFile()) throw new ContentError(name, 'is not a file');
    // A symbolic link (or a linked folder) to a file elsewhere would publish it: a page, its twin, the
    // feeds and llms-full.txt.
    assertInsideSite(root, url, name);
    if (size.size > MAX_CONTENT_FILE_BYTES)
      throw new ContentError(name, `is ${size.size} bytes, more than ${MAX_CONTENT_FILE_BYTES}; shorten it`);
    return ownerText(readFileSync(url, 'utf8'), name);
  };
  const read = (name: string, url: URL = new URL(name, dir)) => {
    const size = statSync(url, { throwIfNoEntry: false });
    if (size === undefined) throw new ContentError(name, 'is missing; the site needs it (docs/site.md)');
    return readBounded(name, url, size);
  };
  const writingsDir = new URL('writings/', dir);
  const names = statSync(writingsDir, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(writingsDir) : [];
  // Its pictures must lie under site/writings/ itself, links followed (writing-pictures.ts).
  const writingsRoot = names.length === 0 ? root : siteRoot(writingsDir);
  const writings = names
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f): Writing | null => {
      const file = `writings/${f}`;
      const writing = parseWriting(read(file, new URL(encodeURIComponent(f), writingsDir)), file, timeZone);
      if (writing === null) return null;
      renderable(writing.body, file);
      return {
        ...writing,
        cover: writing.image === null ? null : coverPicture(writingsDir, writingsRoot, file, writing.image),
        pictures: writingPictures(writingsDir, writingsRoot, file, writing.body),
      };
    })
    .filter((w): w is Writing => w !== null);
  const profile = parseProfile(read('profile.md'));
  renderable(profile.about, 'profile.md');
  // Optional: a site without a résumé publishes no /resume.
  const resumeUrl = new URL(RESUME_FILE, dir);
  const resumeSize = statSync(resumeUrl, { throwIfNoEntry: false });
  const resume = resumeSize === undefined ? null : parseResume(readBounded(RESUME_FILE, resumeUrl, resumeSize));
  // One place for the skills: skills.yaml when there is one, else the résumé's (docs/site.md#skills).
  const skillsUrl = new URL(SKILLS_FILE, dir);
  const fromResume = resume === null ? [] : resumeSkillGroups(resume.document);
  const skillsSize = statSync(skillsUrl, { throwIfNoEntry: false });
  if (skillsSize === undefined && fromResume.length === 0)
    throw new ContentError(
      SKILLS_FILE,
      `is missing; list your skills there, or in ${RESUME_FILE}'s "skills" (docs/site.md#skills)`,
    );
  const skills = skillsSize === undefined ? fromResume : parseSkills(readBounded(SKILLS_FILE, skillsUrl, skillsSize));
  // The skills page is Markdown made of these texts, one line each (pages/skills.ts).
  renderable(
    skills.flatMap((g) => [g.group, ...g.skills.flatMap((s) => [s.name, s.note ?? ''])]).join('\n\n'),
    fromResume === skills ? RESUME_FILE : SKILLS_FILE,
  );
  // Optional: a site without projects.yaml shows the GitHub projects alone.
  const projectsUrl = new URL(PROJECTS_FILE, dir);
  const projectsSize = statSync(projectsUrl, { throwIfNoEntry: false });
  const ownerProjects =
    projectsSize === undefined
      ? []
      : parseOwnerProjects(readBounded(PROJECTS_FILE, projectsUrl, projectsSize), PROJECTS_FILE);
  // The owner's picture: profile.md's `avatar:`, else the résumé's `basics.image`.
  const avatar =
    avatarSource(dir, root, profile.avatar) ?? resumeImageSource(dir, root, resume?.document.basics?.image);
  const pages = sitePagesOf(site, resume !== null);
  return { profile, skills, ownerProjects, writings: sortWritings(writings), resume, avatar, pages };
}
