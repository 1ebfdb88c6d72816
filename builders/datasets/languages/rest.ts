// The languages from GitHub's REST API (no token): one list of the owner's repositories, most recently
// pushed first, then the languages of each of the first 30 own, non-fork, not excluded ones (GitHub
// allows 60 unauthenticated requests an hour, which the projects' counts share), a few at a time.
// Forks and excluded repositories are never asked for; colours come from linguist's table (colors.ts).
import { UpstreamError } from '../../lib/errors.ts';
import { repositoryFault } from '../projects/rule.ts';
import { upstreamClient, type HttpOptions } from '../../upstreams/http.ts';
import { linguistColors } from './colors.ts';
import { MAX_REST_REPOSITORIES, type RepositoryLanguages } from './rule.ts';

export { MAX_REST_REPOSITORIES };
import { excluded, type LanguagesSettings } from './settings.ts';

/** How many language requests are in flight at once: quick, and never a burst GitHub would call abuse. */
export const REST_CONCURRENCY = 4;
/** A page of 100 repositories is some 600 KB of JSON. */
const MAX_LIST_BYTES = 4 * 1024 * 1024;
/** A repository's languages are a few hundred bytes. */
const MAX_LANGUAGES_BYTES = 256 * 1024;

/** The repositories of the list that are read: own, not forks, not excluded, the first 30; the shape checked. */
export function readableRepositories(
  list: unknown,
  account: string,
  settings: LanguagesSettings,
): Array<{ owner: string; name: string }> {
  if (!Array.isArray(list)) throw new UpstreamError('github-rest', 'the list of repositories is not a JSON array');
  const readable: Array<{ owner: string; name: string }> = [];
  list.slice(0, 100).forEach((item: unknown, i) => {
    const it = item as { name?: unknown; fork?: unknown; owner?: { login?: unknown } | null } | null;
    const where = `repository ${i + 1} of the list`;
    if (typeof it?.name !== 'string' || typeof it.owner?.login !== 'string' || typeof it.fork !== 'boolean')
      throw new UpstreamError('github-rest', `${where}: no name, owner login or fork flag`);
    const fault = repositoryFault(it.owner.login, it.name);
    if (fault !== undefined) throw new UpstreamError('github-rest', `${where}: ${fault}`);
    if (it.fork || it.owner.login.toLowerCase() !== account.toLowerCase() || excluded(settings, it.name)) return;
    readable.push({ owner: it.owner.login, name: it.name });
  });
  return readable.slice(0, MAX_REST_REPOSITORIES);
}

/**
 * `work` over `items`, at most `limit` at a time, results in the items' order; the first failure rejects,
 * and no request starts after it (the answer is unusable whole).
 */
async function bounded<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export function githubLanguagesRest(apiUrl: string, account: string, http: HttpOptions, settings: LanguagesSettings) {
  const rest = upstreamClient('github-rest', { ...http, headers: { accept: 'application/vnd.github+json' } });
  return async function restLanguages(): Promise<RepositoryLanguages[]> {
    let list: unknown;
    try {
      list = await rest(`${apiUrl}/users/${encodeURIComponent(account)}/repos?type=owner&sort=pushed&per_page=100`, {
        as: 'json',
        maxBytes: MAX_LIST_BYTES,
      });
    } catch (error) {
      if (error instanceof UpstreamError && error.status === 404)
        throw new UpstreamError('github-rest', `account "${account}" not found (404)`, { cause: error, status: 404 });
      throw error;
    }
    const repositories = readableRepositories(list, account, settings);
    const colors = await linguistColors();
    return bounded(repositories, REST_CONCURRENCY, async ({ owner, name }): Promise<RepositoryLanguages> => {
      const answer = await rest(`${apiUrl}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/languages`, {
        as: 'json',
        maxBytes: MAX_LANGUAGES_BYTES,
      });
      if (answer === null || typeof answer !== 'object' || Array.isArray(answer))
        throw new UpstreamError('github-rest', `GET /repos/${owner}/${name}/languages: not a JSON object`);
      return {
        name,
        languages: Object.entries(answer as Record<string, unknown>).map(([language, bytes]) => ({
          name: language,
          bytes,
          color: colors.get(language) ?? null,
        })),
      };
    });
  };
}
