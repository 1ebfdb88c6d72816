// Human output of each command: what a person wants in a terminal. Pure: values in, lines out.
import type { ApiDescription, Catalog, CatalogLink } from './api-docs.ts';
import { PROGRAM } from './commands.ts';
import type { Profile, Skills, Writing, WritingEntry } from './content.ts';
import { renderText, style, table, wrapIndented, type Terminal } from './terminal.ts';
import { SIMULATED_NOTICE_FOR_READERS } from '../lib/simulated.ts';

const heading = (term: Terminal, text: string) => style(term, 'bold', text);

/**
 * A command's lines, opened by the demo notice when the site says its data is simulated: first, so that
 * no one reads a number of a demo without it, as on the site's pages.
 */
export function withNotice(term: Terminal, simulated: boolean, lines: string[]): string[] {
  if (!simulated) return lines;
  return [...wrapIndented(style(term, 'bold', SIMULATED_NOTICE_FOR_READERS), term.width, ''), '', ...lines];
}

export function renderProfile(term: Terminal, p: Profile): string[] {
  const out = [heading(term, p.name)];
  if (p.role) out.push(...wrapIndented(p.role, term.width, ''));
  if (p.tagline) out.push(...wrapIndented(p.tagline, term.width, ''));
  const facts = [
    ['Location', p.location],
    ['GitHub', p.github],
    ['Web', p.url],
  ].filter((row): row is [string, string] => typeof row[1] === 'string');
  if (facts.length)
    out.push(
      '',
      ...table(
        facts.map(([k, v]) => [style(term, 'dim', k), v]),
        term.width,
      ),
    );
  if (p.about.length) {
    out.push('', heading(term, 'About'));
    p.about.forEach((para, i) => {
      if (i > 0) out.push('');
      out.push(...wrapIndented(para, term.width, '  '));
    });
  }
  if (p.links.length)
    out.push(
      '',
      heading(term, 'Links'),
      ...table(
        p.links.map((l) => [l.label, l.url]),
        term.width,
      ),
    );
  return out;
}

/** The owner's own projects (site/projects.yaml, from /profile.json) after the GitHub ones, as the home page lists them. */
export function renderOwnerProjects(term: Terminal, projects: NonNullable<Profile['ownerProjects']>): string[] {
  if (projects.length === 0) return [];
  const out = ['', heading(term, 'More projects')];
  for (const p of projects) {
    out.push(...wrapIndented(style(term, 'bold', p.title), term.width, '  ', '    '));
    out.push(...wrapIndented(p.url, term.width, '    '));
    if (p.description) out.push(...wrapIndented(style(term, 'dim', p.description), term.width, '    '));
  }
  return out;
}

export function renderWritings(term: Terminal, writings: WritingEntry[]): string[] {
  if (writings.length === 0) return ['No published writings yet.'];
  const out = [heading(term, `Writings (${writings.length})`), ''];
  const dateWidth = 10;
  const lead = ' '.repeat(2 + dateWidth + 2);
  for (const [i, w] of writings.entries()) {
    if (i > 0) out.push('');
    out.push(...wrapIndented(style(term, 'bold', w.title), term.width, `  ${style(term, 'dim', w.date)}  `, lead));
    if (w.summary) out.push(...wrapIndented(w.summary, term.width, lead));
    out.push(lead + style(term, 'dim', `node ${PROGRAM} writings ${w.slug}`));
  }
  return out;
}

export function renderWriting(term: Terminal, w: Writing): string[] {
  const out = [heading(term, w.title), style(term, 'dim', `${w.date}  ${w.url}`)];
  if (w.summary) out.push(...wrapIndented(style(term, 'italic', w.summary), term.width, ''));
  out.push('', ...renderText(term, w.text));
  return out;
}

export function renderSkills(term: Terminal, groups: Skills['groups']): string[] {
  const out: string[] = [];
  for (const g of groups) {
    if (out.length) out.push('');
    out.push(heading(term, g.name));
    out.push(
      ...table(
        g.skills.map((s) => [s.name, s.note ? style(term, 'dim', s.note) : '']),
        term.width,
      ),
    );
  }
  return out.length ? out : ['No skills listed.'];
}

export function renderApi(term: Terminal, api: ApiDescription): string[] {
  const out = [
    heading(
      term,
      [api.title ?? 'API', api.version ? `v${api.version.replace(/^v/, '')}` : ''].filter(Boolean).join(' '),
    ),
  ];
  const facts: string[][] = [
    [
      'Authentication',
      api.authentication === 'none' ? 'none (no key, no token)' : (api.authentication ?? 'not stated'),
    ],
    ['Index', api.url],
    ['Contract', api.openapi ?? 'not available (operations read from the index)'],
  ];
  out.push(
    ...table(
      facts.map(([k, v]) => [style(term, 'dim', k!), v!]),
      term.width,
    ),
  );
  out.push('', heading(term, `Operations (${api.operations.length})`));
  out.push(
    ...table(
      api.operations.map((o) => [
        style(term, 'green', o.method),
        o.path,
        [o.summary, o.operationId ? style(term, 'dim', `(${o.operationId})`) : ''].filter(Boolean).join(' '),
      ]),
      term.width,
    ),
  );
  return out;
}

/**
 * The catalog grouped by relation: each relation once, each of its targets once with the anchors that link
 * it (a linkset repeats the same five descriptions for every endpoint: said per anchor, that was a hundred
 * lines of the same links). A URL under the catalog's own origin is said as its path.
 */
export function renderCatalog(term: Terminal, catalog: Catalog): string[] {
  const origin = originOf(catalog.url);
  const short = (url: string) => (origin !== null && url.startsWith(`${origin}/`) ? url.slice(origin.length) : url);
  const groups = new Map<string, Map<string, { link: CatalogLink; anchors: string[] }>>();
  for (const ctx of catalog.linkset)
    for (const link of ctx.links) {
      const targets = groups.get(link.rel) ?? new Map<string, { link: CatalogLink; anchors: string[] }>();
      groups.set(link.rel, targets);
      const key = JSON.stringify([link.href, link.title, link.type]);
      const target = targets.get(key) ?? { link, anchors: [] };
      targets.set(key, target);
      if (!target.anchors.includes(ctx.anchor)) target.anchors.push(ctx.anchor);
    }
  // RFC 9727's `item` links name the APIs; a description every one of them carries is said once for all.
  const items = [...(groups.get('item')?.values() ?? [])].map((t) => t.link.href);
  const out = [heading(term, 'API catalog'), ...wrapIndented(style(term, 'dim', catalog.url), term.width, '')];
  for (const [rel, targets] of groups) {
    out.push('', style(term, 'cyan', rel));
    for (const { link, anchors } of targets.values()) {
      out.push(...wrapIndented(short(link.href), term.width, '  '));
      const about = [link.title, link.type ? style(term, 'dim', `[${link.type}]`) : ''].filter(Boolean).join(' ');
      if (about) out.push(...wrapIndented(about, term.width, '    '));
      const from = linkedFrom(anchors, catalog.url, items);
      if (from.length)
        out.push(
          ...wrapIndented(style(term, 'dim', `from ${from.map(short).join(', ')}`), term.width, '    ', '      '),
        );
    }
  }
  return out;
}

/**
 * The anchors a target is linked from, as the catalog lines say them: not the catalog itself (where its
 * items are), and "every item above" for all of its items at once.
 */
function linkedFrom(anchors: readonly string[], catalogUrl: string, items: readonly string[]): string[] {
  const others = anchors.filter((a) => a !== catalogUrl);
  const everyItem = items.length > 1 && items.every((item) => others.includes(item));
  return everyItem ? [...others.filter((a) => !items.includes(a)), 'every item above'] : others;
}

/** `https://host:port` of a URL, or null when it is not one. */
function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

// `resume`: JSON Resume's sections as a reader scans them. Only the strings each entry is expected to hold are
// shown (the rest of the document is --json's).
type Entry = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const entries = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter((v): v is Entry => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
const joined = (parts: unknown[], separator: string) => parts.map(str).filter(Boolean).join(separator);

/** `2021-03 – present`: a JSON Resume entry's dates as written (ISO 8601, year to day). */
const span = (e: Entry) => {
  const start = str(e.startDate);
  const end = str(e.endDate);
  return start || end ? `${start || '?'} – ${end || 'present'}` : '';
};

/** The sections a reader scans first, each entry a title line, its dates and its summary. */
const SECTIONS: Array<[string, string, (e: Entry) => string]> = [
  ['work', 'Work', (e) => joined([e.position, e.name], ', ')],
  ['volunteer', 'Volunteer', (e) => joined([e.position, e.organization], ', ')],
  ['education', 'Education', (e) => joined([joined([e.studyType, e.area], ' in '), e.institution], ', ')],
  ['projects', 'Projects', (e) => str(e.name)],
  ['awards', 'Awards', (e) => joined([e.title, e.awarder], ', ')],
  ['certificates', 'Certificates', (e) => joined([e.name, e.issuer], ', ')],
  ['publications', 'Publications', (e) => joined([e.name, e.publisher], ', ')],
];

export function renderResume(term: Terminal, r: Entry): string[] {
  const basics = entries([r.basics])[0] ?? {};
  const location = entries([basics.location])[0] ?? {};
  const out = [style(term, 'bold', str(basics.name) || 'Résumé')];
  if (str(basics.label)) out.push(...wrapIndented(str(basics.label), term.width, ''));
  const facts = [
    ['Location', joined([location.city, location.region, location.countryCode], ', ')],
    ['E-mail', str(basics.email)],
    ['Phone', str(basics.phone)],
    ['Web', str(basics.url)],
    ...entries(basics.profiles).map((p) => [str(p.network) || 'Profile', str(p.url) || str(p.username)]),
  ].filter(([, v]) => v);
  if (facts.length)
    out.push(
      '',
      ...table(
        facts.map(([k, v]) => [style(term, 'dim', k!), v!]),
        term.width,
      ),
    );
  if (str(basics.summary)) out.push('', ...wrapIndented(str(basics.summary), term.width, '  '));
  for (const [key, title, head] of SECTIONS) {
    const list = entries(r[key]).filter((e) => head(e));
    if (list.length === 0) continue;
    out.push('', style(term, 'bold', title));
    for (const e of list) {
      out.push(...wrapIndented(head(e), term.width, '  ', '    '));
      const when = span(e) || str(e.date) || str(e.releaseDate);
      if (when) out.push(`    ${style(term, 'dim', when)}`);
      const about = str(e.summary) || str(e.description);
      if (about) out.push(...wrapIndented(about, term.width, '    '));
    }
  }
  const named = (key: string, title: string, detail: (e: Entry) => string) => {
    const list = entries(r[key]).filter((e) => str(e.name) || str(e.language));
    if (list.length === 0) return;
    out.push('', style(term, 'bold', title));
    out.push(
      ...table(
        list.map((e) => [str(e.name) || str(e.language), detail(e)]),
        term.width,
      ),
    );
  };
  const keywords = (e: Entry) => (Array.isArray(e.keywords) ? joined(e.keywords, ', ') : '');
  named('skills', 'Skills', (e) => joined([e.level, keywords(e)], ': '));
  named('languages', 'Languages', (e) => str(e.fluency));
  named('interests', 'Interests', keywords);
  return out;
}
