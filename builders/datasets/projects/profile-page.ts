// The owner's projects from their public GitHub profile page (no token, docs/upstreams.md#projects): the
// "Pinned" or "Popular repositories" section, read with htmlparser2 as the calendar's page is. A count the
// page abbreviates (`12.3k`) is read exactly from the REST API; it is never estimated. Anything this parser
// does not recognise makes the page unusable, never an empty list.
import { Parser } from 'htmlparser2';
import { accountNotFound, UpstreamError } from '../../lib/errors.ts';
import { repositoryFault, type RepositoryItem, type Selection } from './rule.ts';
import { upstreamClient, type HttpOptions } from '../../upstreams/http.ts';

/** A real profile page is a few hundred KB. */
export const MAX_PROFILE_HTML_BYTES = 8 * 1024 * 1024;
/** A repository's REST answer is a few KB. */
const MAX_REPOSITORY_JSON_BYTES = 1024 * 1024;
/** Far past any real tag (GitHub's longest carry analytics attributes of a few KB). */
const MAX_TAG_LENGTH = 32 * 1024;
/** Far past a real page's depth; htmlparser2's open-element stack grows at its front (see github-html.ts). */
const MAX_OPEN_ELEMENTS = 512;

/** What the page says of a count: exact, or abbreviated (read from REST). */
export type PageCount = number | 'abbreviated';

export interface ProfileItem extends Omit<RepositoryItem, 'stars' | 'forks'> {
  stars: PageCount;
  forks: PageCount;
}

export interface ProfileSection {
  selection: Selection;
  items: ProfileItem[];
}

/**
 * The sentence of a profile with no public repository (GitHub writes a typographic apostrophe), as the
 * page shows it: read from its visible text, entities decoded and whitespace collapsed.
 */
const NO_REPOSITORIES = /doesn[’']t have any public repositories yet\./;

/**
 * Elements whose text a browser does not show: a sentence there (a sign-in page's comment, a script's
 * string, a template) is not what the page says. Comments and attribute values never reach the text.
 */
const UNSEEN_ELEMENTS = new Set(['head', 'title', 'script', 'style', 'template', 'noscript']);

/** "2,612" → 2612; "12.3k", "1.2m" → abbreviated; anything else undefined. */
export function parsePageCount(text: string): PageCount | undefined {
  const t = text.trim();
  if (/^(?:\d{1,3}(?:,\d{3})+|\d+)$/.test(t)) return Number(t.replaceAll(',', ''));
  if (/^\d+(?:\.\d+)?[km]$/i.test(t)) return 'abbreviated';
  return undefined;
}

/** The section's heading: "Pinned" (what follows it, a spinner or a link, is not the heading's word). */
function selectionOf(heading: string): Selection | undefined {
  const t = heading.replace(/\s+/g, ' ').trim();
  if (/^Pinned\b/.test(t)) return 'pinned';
  if (/^Popular repositories\b/.test(t)) return 'popular';
  return undefined;
}

interface OpenItem {
  depth: number;
  href?: string;
  description?: string;
  language?: string;
  languageColor?: string;
  stars?: string;
  forks?: string;
}

/** Text collected until the element opened at `depth` closes; text inside an <svg> (an icon) is not read. */
interface Capture {
  depth: number;
  parts: string[];
  svg: number;
  done(text: string): void;
}

const hasClass = (attributes: Record<string, string>, name: string) =>
  (attributes['class'] ?? '').split(/\s+/).includes(name);

/**
 * The section of the page: its selection and its repositories in the page's order, a gist skipped. Text
 * and attribute values arrive with entities decoded, so `&lt;one&gt;` is `<one>` here, as text.
 */
export function parseProfileHtml(html: string): ProfileSection {
  let selection: Selection | undefined;
  const items: ProfileItem[] = [];
  let item: OpenItem | undefined;
  let capture: Capture | undefined;
  let open = 0;
  /** The depth of the unseen element the parser is in (UNSEEN_ELEMENTS, or one with `hidden`), if any. */
  let unseenAt: number | undefined;
  /** The visible text, for the no-repository sentence; only kept while no section was found. */
  const visible: string[] = [];
  let failure: UpstreamError | undefined;
  const fail = (message: string) => {
    failure ??= new UpstreamError('github-profile', message);
    parser.pause();
  };
  const collect = (done: (text: string) => void) => {
    capture = { depth: open, parts: [], svg: 0, done };
  };
  const finish = (it: OpenItem) => {
    if (it.href === undefined) return fail('a pinned item without a link (markup changed?)');
    // A pinned gist lives on gist.github.com: not a repository, skipped.
    if (/^https:\/\/gist\.github\.com\//.test(it.href)) return;
    const path = /^\/([^/?#]+)\/([^/?#]+)$/.exec(it.href);
    if (path === null) return fail(`repository ${items.length + 1}: its link is not /<owner>/<name>`);
    const stars = it.stars === undefined ? 0 : parsePageCount(it.stars);
    const forks = it.forks === undefined ? 0 : parsePageCount(it.forks);
    if (stars === undefined || forks === undefined)
      return fail(`repository ${items.length + 1}: a count is neither digits nor abbreviated`);
    items.push({
      owner: path[1]!,
      name: path[2]!,
      description: it.description ?? null,
      language: it.language ?? null,
      languageColor: it.languageColor ?? null,
      stars,
      forks,
    });
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (parser.endIndex - parser.startIndex > MAX_TAG_LENGTH)
          return fail(`a tag longer than ${MAX_TAG_LENGTH} characters (markup changed?)`);
        if (++open > MAX_OPEN_ELEMENTS) return fail(`elements nested more than ${MAX_OPEN_ELEMENTS} deep`);
        if (unseenAt === undefined && (UNSEEN_ELEMENTS.has(name) || 'hidden' in attributes)) unseenAt = open;
        if (capture !== undefined) {
          if (name === 'svg') capture.svg++;
          return;
        }
        if (name === 'h2' && selection === undefined && item === undefined) {
          return collect((text) => {
            selection = selectionOf(text);
          });
        }
        if (item === undefined) {
          if (hasClass(attributes, 'pinned-item-list-item-content')) {
            if (selection === undefined) return fail('a pinned item before the section heading (markup changed?)');
            item = { depth: open };
          }
          return;
        }
        const it = item;
        const href = attributes['href'];
        if (name === 'a' && href !== undefined) {
          if (/\/stargazers$/.test(href)) return collect((text) => (it.stars = text));
          if (/\/(?:forks|network\/members)$/.test(href)) return collect((text) => (it.forks = text));
          it.href ??= href;
          return;
        }
        if (name === 'p' && hasClass(attributes, 'pinned-item-desc')) return collect((text) => (it.description = text));
        if (attributes['itemprop'] === 'programmingLanguage') return collect((text) => (it.language = text));
        if (hasClass(attributes, 'repo-language-color')) {
          const color = /background-color:\s*([^;]+)/.exec(attributes['style'] ?? '');
          it.languageColor = color?.[1]?.trim();
        }
      },
      ontext(text) {
        if (capture !== undefined && capture.svg === 0) capture.parts.push(text);
        if (unseenAt === undefined && selection === undefined) visible.push(text);
      },
      onclosetag(name) {
        if (capture !== undefined) {
          if (name === 'svg' && capture.svg > 0) capture.svg--;
          if (open === capture.depth) {
            const done = capture;
            capture = undefined;
            done.done(done.parts.join(''));
          }
        }
        if (item !== undefined && open === item.depth) {
          const done = item;
          item = undefined;
          finish(done);
        }
        if (open === unseenAt) unseenAt = undefined;
        open--;
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  if (failure !== undefined) throw failure;
  if (selection === undefined) {
    // No section: an account with no public repository says so where the page shows it; anything else
    // (a sign-in page whose only such sentence sits in a comment) is a page we do not know.
    if (items.length === 0 && NO_REPOSITORIES.test(visible.join('').replace(/\s+/g, ' ')))
      return { selection: 'popular', items: [] };
    throw new UpstreamError('github-profile', 'no "Pinned" or "Popular repositories" section found (markup changed?)');
  }
  return { selection, items };
}

/** GitHub's login rule and a repository name, checked before either is put in a REST URL. */
function checked(items: readonly ProfileItem[]): ProfileItem[] {
  items.forEach((item, i) => {
    const fault = repositoryFault(item.owner, item.name);
    if (fault !== undefined) throw new UpstreamError('github-profile', `repository ${i + 1}: ${fault}`);
  });
  return [...items];
}

/** An exact count of the REST answer, or an UpstreamError. */
function exactCount(answer: unknown, field: 'stargazers_count' | 'forks_count', what: string): number {
  const value = (answer as Record<string, unknown> | null)?.[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new UpstreamError('github-rest', `${what}: ${field} is not a count`);
  return value;
}

/**
 * The profile page's section, each abbreviated count read exactly from `GET /repos/<owner>/<name>`
 * (unauthenticated). `webUrl`: GITHUB_WEB_URL; `apiUrl`: GITHUB_API_URL.
 */
export function githubProfileClient(webUrl: string, apiUrl: string, account: string, http: HttpOptions) {
  const page = upstreamClient('github-profile', { ...http, headers: { accept: 'text/html' } });
  const rest = upstreamClient('github-rest', { ...http, headers: { accept: 'application/vnd.github+json' } });
  return async function profileProjects(): Promise<{ selection: Selection; items: RepositoryItem[] }> {
    let html: unknown;
    try {
      html = await page(`${webUrl}/${encodeURIComponent(account)}`, { as: 'text', maxBytes: MAX_PROFILE_HTML_BYTES });
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404)
        throw new UpstreamError('github-profile', accountNotFound(account, error), {
          cause: error,
          status: 404,
        });
      throw error;
    }
    const section = parseProfileHtml(html as string);
    const items = await Promise.all(
      checked(section.items.slice(0, 6)).map(async (item): Promise<RepositoryItem> => {
        if (item.stars !== 'abbreviated' && item.forks !== 'abbreviated')
          return { ...item, stars: item.stars, forks: item.forks };
        const what = `GET /repos/${item.owner}/${item.name}`;
        const answer = await rest(`${apiUrl}/repos/${item.owner}/${item.name}`, {
          as: 'json',
          maxBytes: MAX_REPOSITORY_JSON_BYTES,
        });
        return {
          ...item,
          stars: item.stars === 'abbreviated' ? exactCount(answer, 'stargazers_count', what) : item.stars,
          forks: item.forks === 'abbreviated' ? exactCount(answer, 'forks_count', what) : item.forks,
        };
      }),
    );
    return { selection: section.selection, items };
  };
}
