// /resume, its twin /resume.md and /resume.json, from the owner's JSON Resume document (site/resume.json,
// builders/build/content/resume.ts). One Markdown text is both the twin's body and, rendered, the page's: every
// non-empty section in a fixed order, dates written as the site writes them (ISO 8601, as JSON Resume
// gives them: `2014`, `2014-06`, `2014-06-29`). Only what is published is shown: the page renders
// publishedResume(), never the file.
import type { Artifact, BuildContext } from '../artifact.ts';
import { publishedResume, type LoadedResume, type Resume } from '../content/resume.ts';
import { renderMarkdown } from '../content/markdown.ts';
import { twin } from '../content/twins.ts';
import { markdownDestination, markdownLink, markdownText } from '../../lib/text/markdown-text.ts';
import { absoluteUrl, PAGES, RESUME_DOCUMENT, sitePath } from '../../contract/pages.ts';
import { escapeHtml } from '../../render/html.ts';
import { frameOf, renderLayout } from './layout.ts';

export const RESUME_TITLE = 'Résumé';

/** Text as Markdown that renders as exactly that text (builders/lib/text/markdown-text.ts). */
const t = markdownText;

const link = (text: string, url: string | undefined) => (url ? markdownLink(text, url) : t(text));

/** A period as the site writes dates: `2022-03 – present`, `2017-06-12 – 2022-02-28`, or one date. */
export function period(start: string | undefined, end: string | undefined, open = 'present'): string {
  if (start && end) return `${start} – ${end}`;
  if (start) return `${start} – ${open}`;
  return end ?? '';
}

/** Non-empty strings only, joined. */
const join = (parts: Array<string | undefined>, separator = ' · ') =>
  parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').join(separator);

const list = (items: readonly string[] | undefined) =>
  (items ?? []).filter((i) => i.trim() !== '').map((i) => `- ${t(i)}`);

/** Keywords on one line, as a reader scans them: `TypeScript, Node.js, PostgreSQL`. */
const keywords = (words: readonly string[] | undefined) => (words ?? []).filter((w) => w.trim() !== '').join(', ');
/** The owner's text for a line of facts, or nothing when empty. */
const opt = (text: string | undefined) => (text ? t(text) : undefined);

/** One entry of a section: a heading, a line of facts, a paragraph, a list. */
function entry(heading: string, facts: string, paragraphs: Array<string | undefined>, items: string[] = []): string {
  return [
    `### ${heading}`,
    facts,
    ...paragraphs.filter((p): p is string => !!p && p.trim() !== '').map(t),
    items.join('\n'),
  ]
    .filter((b) => b !== '')
    .join('\n\n');
}

/** A section's title and entries; empty sections are left out. */
type Section = [title: string, entries: string[]];

function sections(r: Resume): Section[] {
  return [
    [
      'Work',
      (r.work ?? []).map((w) =>
        entry(
          join([w.position ? t(w.position) : undefined, link(w.name ?? '', w.url) || undefined], ', '),
          join([period(w.startDate, w.endDate), w.location ? t(w.location) : undefined]),
          [w.description, w.summary],
          list(w.highlights),
        ),
      ),
    ],
    [
      'Projects',
      // JSON Resume's own section (not the projects dataset), read by destructuring.
      (sectionProjects(r) ?? []).map((p) =>
        entry(
          link(p.name ?? '', p.url),
          join([
            period(p.startDate, p.endDate),
            p.entity ? t(p.entity) : undefined,
            p.type ? t(p.type) : undefined,
            p.roles?.length ? t(p.roles.join(', ')) : undefined,
          ]),
          [p.description],
          [...list(p.highlights), ...(p.keywords?.length ? [`- Keywords: ${t(p.keywords.join(', '))}`] : [])],
        ),
      ),
    ],
    [
      'Volunteering',
      (r.volunteer ?? []).map((v) =>
        entry(
          join([v.position ? t(v.position) : undefined, link(v.organization ?? '', v.url) || undefined], ', '),
          period(v.startDate, v.endDate),
          [v.summary],
          list(v.highlights),
        ),
      ),
    ],
    [
      'Education',
      (r.education ?? []).map((e) =>
        entry(
          join(
            [t(join([e.studyType, e.area], ', ')) || undefined, link(e.institution ?? '', e.url) || undefined],
            ', ',
          ),
          join([period(e.startDate, e.endDate, 'now'), e.score ? `Score: ${t(e.score)}` : undefined]),
          [],
          list(e.courses),
        ),
      ),
    ],
    [
      'Awards',
      (r.awards ?? []).map((a) =>
        entry(t(a.title ?? ''), join([a.date, a.awarder ? t(a.awarder) : undefined]), [a.summary]),
      ),
    ],
    [
      'Certificates',
      (r.certificates ?? []).map((c) =>
        entry(link(c.name ?? '', c.url), join([c.date, c.issuer ? t(c.issuer) : undefined]), []),
      ),
    ],
    [
      'Publications',
      (r.publications ?? []).map((p) =>
        entry(link(p.name ?? '', p.url), join([p.releaseDate, p.publisher ? t(p.publisher) : undefined]), [p.summary]),
      ),
    ],
    [
      'Skills',
      (r.skills ?? []).map((s) => entry(t(s.name ?? ''), join([opt(s.level), opt(keywords(s.keywords))]), [])),
    ],
    ['Languages', (r.languages ?? []).map((l) => entry(t(l.language ?? ''), l.fluency ? t(l.fluency) : '', []))],
    ['Interests', (r.interests ?? []).map((i) => entry(t(i.name ?? ''), opt(keywords(i.keywords)) ?? '', []))],
    ['References', (r.references ?? []).map((f) => entry(t(f.name ?? ''), '', [f.reference]))],
  ];
}

/** The lines under the name: the label, where, how to reach the owner, the summary. */
function basicsBlock(r: Resume): string[] {
  const b = r.basics ?? {};
  const where = join([b.location?.city, b.location?.region, b.location?.countryCode], ', ');
  const contact = join([
    where ? t(where) : undefined,
    b.email ? `[${t(b.email)}](mailto:${markdownDestination(b.email)})` : undefined,
    b.phone ? t(b.phone) : undefined,
    b.url ? link(b.url.replace(/^https?:\/\//, '').replace(/\/$/, ''), b.url) : undefined,
  ]);
  const profiles = join(
    (b.profiles ?? []).map((p) => (p.url ? link(join([p.network, p.username], ': ') || p.url, p.url) : undefined)),
  );
  return [b.label ? `**${t(b.label)}**` : '', contact, profiles, b.summary ? t(b.summary) : ''].filter((l) => l !== '');
}

/** The résumé as Markdown: `# Name`, the basics, then `## Section` / `### Entry` for each non-empty section. */
export function resumeMarkdownBody(r: Resume, fallbackName: string): string {
  const body = sections(r)
    .filter(([, entries]) => entries.length > 0)
    .map(([title, entries]) => [`## ${title}`, ...entries].join('\n\n'));
  return [`# ${t(r.basics?.name || fallbackName)}`, ...basicsBlock(r), ...body].join('\n\n');
}

/** The current role: the latest-started work entry with no end date, as "Position at Company". */
export function currentRole(r: Resume): { text: string } | null {
  const current = (r.work ?? [])
    .filter((w) => !w.endDate && (w.position || w.name))
    .sort((a, b) => (b.startDate ?? '').localeCompare(a.startDate ?? ''))[0];
  if (current === undefined) return null;
  return { text: join([current.position, current.name], ' at ') };
}

export function resumeDescription(r: Resume, fallbackName: string): string {
  const name = r.basics?.name || fallbackName;
  return r.basics?.label ? `Résumé of ${name}, ${r.basics.label}.` : `Résumé of ${name}.`;
}

export function renderResume(ctx: BuildContext, loaded: LoadedResume | null, ownerName: string): Artifact[] {
  if (loaded === null) return [];
  const published = publishedResume(loaded);
  const body = resumeMarkdownBody(published, ownerName);
  const description = resumeDescription(published, ownerName);
  const url = absoluteUrl(ctx.config.siteUrl, PAGES.resume.path);
  const html = renderLayout({
    ...frameOf(ctx),
    nav: 'resume',
    page: PAGES.resume,
    title: RESUME_TITLE,
    description,
    main: `<article class="resume">\n${renderMarkdown(body)}\n<p class="print-hide">This résumé as <a href="${escapeHtml(sitePath(ctx.config.siteUrl, RESUME_DOCUMENT.path))}">JSON Resume</a>.</p>\n</article>`,
  });
  return [
    { file: PAGES.resume.htmlFile, body: html },
    { file: PAGES.resume.markdownFile, body: twin({ title: RESUME_TITLE, description, url }, body) },
    { file: RESUME_DOCUMENT.file, body: `${JSON.stringify(published, null, 2)}\n` },
  ];
}

/** JSON Resume's `projects` section of `r`. */
const sectionProjects = <T>({ projects }: { projects?: T }): T | undefined => projects;
