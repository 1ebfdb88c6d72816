// Parses the site's Markdown twins into plain values. Pure; a twin of another shape is an UnexpectedBody.
// The format, as builders/content/twins.ts and the page generators under builders/pages/ write it:
// a front-matter block (a `---` line, one-line `key: value` pairs, a `---` line) with at least `title`,
// `description` and `url`, then a Markdown body whose shape is fixed per page (see each parser below).

export class UnexpectedBody extends Error {
  override readonly name = 'UnexpectedBody';
}

export interface Twin {
  meta: Record<string, string>;
  body: string;
}

export interface Profile {
  url: string;
  name: string;
  tagline: string | null;
  location: string | null;
  github: string | null;
  description: string | null;
  about: string[];
  links: Array<{ label: string; url: string }>;
}

export interface WritingEntry {
  slug: string;
  title: string;
  date: string;
  summary: string;
  url: string;
}

export interface Writing {
  slug: string;
  title: string;
  date: string;
  summary: string | null;
  url: string;
  markdown: string;
}

export interface SkillGroup {
  name: string;
  skills: Array<{ name: string; note: string | null }>;
}

/** Front matter: a first line `---`, `key: value` lines, a closing `---` line. */
export function parseTwin(text: string): Twin {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') throw new UnexpectedBody('it does not start with a front-matter block (---)');
  const meta: Record<string, string> = {};
  let end = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '---') {
      end = i;
      break;
    }
    if (line.trim() === '') continue;
    const m = /^([A-Za-z][\w-]*):(?:\s(.*))?$/.exec(line);
    if (!m) throw new UnexpectedBody(`front-matter line ${i + 1} is not "key: value"`);
    meta[m[1]!] = (m[2] ?? '').trim();
  }
  if (end < 0) throw new UnexpectedBody('its front-matter block is not closed (---)');
  return {
    meta,
    body: lines
      .slice(end + 1)
      .join('\n')
      .replace(/^\n+/, ''),
  };
}

interface Section {
  heading: string;
  blocks: string[][];
}

/** Splits a body at `## ` headings; each section's lines grouped in blank-line separated blocks. */
function sections(body: string): { title: string | null; intro: string[][]; sections: Section[] } {
  let title: string | null = null;
  const intro: string[][] = [];
  const out: Section[] = [];
  let blocks = intro;
  let current: string[] = [];
  const flush = () => {
    if (current.length) blocks.push(current);
    current = [];
  };
  let fenced = false;
  for (const raw of body.split('\n')) {
    const line = raw.trimEnd();
    if (/^(```|~~~)/.test(line.trim())) fenced = !fenced;
    if (!fenced && /^# /.test(line) && title === null && out.length === 0) {
      flush();
      title = line.slice(2).trim();
    } else if (!fenced && /^## /.test(line)) {
      flush();
      const section = { heading: line.slice(3).trim(), blocks: [] as string[][] };
      out.push(section);
      blocks = section.blocks;
    } else if (!fenced && line.trim() === '') {
      flush();
    } else {
      current.push(line);
    }
  }
  flush();
  return { title, intro, sections: out };
}

const LINK_ITEM = /^[-*] \[(.+)\]\(<?([^()\s<>]+)>?\)\s*$/;
const paragraph = (block: string[]) => block.map((l) => l.trim()).join(' ');

/**
 * /index.md: front matter adds `name`, `tagline`, `location` and `github`; the body is `# Name`, the
 * tagline, `## About` paragraphs and `## Links` items `- [Label](url)` (builders/pages/home.ts).
 */
export function parseProfile(text: string, fallbackUrl: string): Profile {
  const { meta, body } = parseTwin(text);
  const doc = sections(body);
  const name = meta.name || doc.title;
  if (!name) throw new UnexpectedBody('it names nobody (no "name:" and no "# " heading)');
  const firstIntro = doc.intro.find((b) => !b[0]!.startsWith('- '));
  const about = doc.sections.find((s) => /^about\b/i.test(s.heading));
  const links = doc.sections.find((s) => /^links\b/i.test(s.heading));
  return {
    url: meta.url || fallbackUrl,
    name,
    tagline: meta.tagline || (firstIntro ? paragraph(firstIntro) : null),
    location: meta.location || null,
    github: meta.github || null,
    description: meta.description || null,
    about: about ? about.blocks.map(paragraph) : [],
    links: links
      ? links.blocks.flat().flatMap((line) => {
          const m = LINK_ITEM.exec(line.trim());
          return m ? [{ label: m[1]!, url: m[2]! }] : [];
        })
      : [],
  };
}

/** One line per writing: `- [Title](<absolute url of /writings/<slug>>) — YYYY-MM-DD: <summary>` (an em dash). */
const WRITING_LINE = /^- \[(.+)\]\(<?([^()\s<>]+)>?\) \u2014 (\d{4}-\d{2}-\d{2}):(?: (.*))?$/;

/** /writings.md: `# Writings`, then one WRITING_LINE per writing, newest first (builders/pages/writings.ts). */
export function parseWritings(text: string, fallbackUrl: string): { url: string; writings: WritingEntry[] } {
  const { meta, body } = parseTwin(text);
  const writings: WritingEntry[] = [];
  let fenced = false;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !/^[-*] /.test(line)) continue;
    const m = WRITING_LINE.exec(line);
    if (!m)
      throw new UnexpectedBody(
        `the list line ${JSON.stringify(line.slice(0, 60))} is not "- [Title](url) — YYYY-MM-DD: summary"`,
      );
    const url = m[2]!;
    writings.push({ slug: slugOf(url), title: m[1]!, date: m[3]!, summary: (m[4] ?? '').trim(), url });
  }
  return { url: meta.url || fallbackUrl, writings };
}

/** The slug is the last path segment of the writing's URL: a writing's page is /writings/<slug>. */
export function slugOf(url: string): string {
  let path: string;
  try {
    path = new URL(url, 'http://x/').pathname;
  } catch {
    throw new UnexpectedBody(`${JSON.stringify(url)} is not a URL`);
  }
  const segment = decodeURIComponent(path.replace(/\/+$/, '').split('/').pop() ?? '').replace(/\.(html|md)$/, '');
  if (!segment) throw new UnexpectedBody(`${JSON.stringify(url)} has no slug`);
  return segment;
}

/** /writings/<slug>.md: front matter adds `date`, `summary` and `slug`; the body starts with `# Title`. */
export function parseWriting(text: string, slug: string, fallbackUrl: string): Writing {
  const { meta, body } = parseTwin(text);
  const heading = /^# (.+)$/m.exec(body);
  const title = heading?.[1]?.trim() || meta.title;
  if (!title) throw new UnexpectedBody('the writing has no title');
  const date = meta.date ?? '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new UnexpectedBody('the writing has no "date: YYYY-MM-DD"');
  return {
    slug: meta.slug || slug,
    title,
    date,
    summary: meta.summary || null,
    url: meta.url || fallbackUrl,
    markdown: body.trimEnd() + '\n',
  };
}

/** /skills.md: one `## Group` heading per group over `- Skill` or `- Skill: note` items (builders/pages/skills.ts). */
export function parseSkills(text: string, fallbackUrl: string): { url: string; groups: SkillGroup[] } {
  const { meta, body } = parseTwin(text);
  const groups = sections(body).sections.map((s) => ({
    name: s.heading,
    skills: s.blocks.flat().flatMap((line) => {
      const m = /^[-*] (.+)$/.exec(line.trim());
      if (!m) return [];
      const item = m[1]!.trim();
      const colon = item.indexOf(': ');
      return colon > 0
        ? [{ name: item.slice(0, colon).trim(), note: item.slice(colon + 2).trim() || null }]
        : [{ name: item, note: null }];
    }),
  }));
  return { url: meta.url || fallbackUrl, groups };
}
