// The languages from GitHub's GraphQL API (GITHUB_TOKEN set): one query, the owner's first 100 own public
// repositories (forks excluded by GitHub), most recently pushed first, each with its languages by size
// and linguist's colour. An excluded repository comes back in the page and is dropped before any sum.
import { UpstreamError } from '../../lib/errors.ts';
import { githubGraphql } from '../../upstreams/github-graphql.ts';
import type { HttpOptions } from '../../upstreams/http.ts';
import type { RepositoryLanguages } from './rule.ts';
import { excluded, type LanguagesSettings } from './settings.ts';

export const LANGUAGES_QUERY = `query ($login: String!) {
  user(login: $login) {
    repositories(first: 100, ownerAffiliations: [OWNER], isFork: false, privacy: PUBLIC, orderBy: {field: PUSHED_AT, direction: DESC}) { nodes { name languages(first: 100, orderBy: {field: SIZE, direction: DESC}) { edges { size node { name color } } } } }
  }
}`;

/** 100 repositories of up to 100 languages each: well under a MiB of JSON. */
const MAX_LANGUAGES_ANSWER_BYTES = 4 * 1024 * 1024;

interface Edge {
  size?: unknown;
  node?: { name?: unknown; color?: unknown } | null;
}

/** The repositories of the answer, exclusions dropped; the shape checked (the counts and names by the rule). */
export function parseLanguagesAnswer(data: unknown, settings: LanguagesSettings): RepositoryLanguages[] {
  const user = (data as { user?: unknown } | null)?.user as { repositories?: { nodes?: unknown } } | null | undefined;
  if (user === null) throw new UpstreamError('github-graphql', 'account not found (user is null)');
  const nodes = user?.repositories?.nodes;
  if (!Array.isArray(nodes)) throw new UpstreamError('github-graphql', 'answer has no repositories.nodes array');
  return nodes.slice(0, 100).flatMap((node: unknown, i): RepositoryLanguages[] => {
    const n = node as { name?: unknown; languages?: { edges?: unknown } | null } | null;
    const where = `repository ${i + 1}`;
    if (typeof n?.name !== 'string' || n.name === '') throw new UpstreamError('github-graphql', `${where}: no name`);
    if (excluded(settings, n.name)) return [];
    // GitHub's schema makes the connection nullable: a repository without one has no languages.
    if (n.languages === null) return [{ name: n.name, languages: [] }];
    const edges = n.languages?.edges;
    if (!Array.isArray(edges)) throw new UpstreamError('github-graphql', `${where}: no languages.edges array`);
    return [
      {
        name: n.name,
        languages: (edges as Array<Edge | null>).map((edge, e) => {
          if (edge === null || typeof edge !== 'object' || edge.node === null || typeof edge.node !== 'object')
            throw new UpstreamError('github-graphql', `${where}, language ${e + 1}: not an edge with a node`);
          return { name: edge.node.name, bytes: edge.size, color: edge.node.color };
        }),
      },
    ];
  });
}

export function githubLanguagesGraphql(
  apiUrl: string,
  token: string,
  account: string,
  http: HttpOptions,
  settings: LanguagesSettings,
) {
  const query = githubGraphql(apiUrl, token, account, http, MAX_LANGUAGES_ANSWER_BYTES);
  return async () => parseLanguagesAnswer(await query(LANGUAGES_QUERY, {}), settings);
}
