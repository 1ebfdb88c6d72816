// The owner's projects from GitHub's GraphQL API (GITHUB_TOKEN set, docs/upstreams.md#projects): the
// pinned repositories and, in the same query, the popular ones (own, public, not forks, most stars first).
import { UpstreamError } from '../../lib/errors.ts';
import type { RepositoryItem, Selection } from './rule.ts';
import { githubGraphql } from '../../upstreams/github-graphql.ts';
import type { HttpOptions } from '../../upstreams/http.ts';

const FIELDS = 'name owner { login } description primaryLanguage { name color } stargazerCount forkCount';

export const PROJECTS_QUERY = `query ($login: String!) {
  user(login: $login) {
    pinnedItems(first: 6, types: [REPOSITORY]) { nodes { ... on Repository { ${FIELDS} } } }
    repositories(first: 6, ownerAffiliations: [OWNER], isFork: false, privacy: PUBLIC, orderBy: {field: STARGAZERS, direction: DESC}) { nodes { ${FIELDS} } }
  }
}`;

/** Twelve repositories are a few KB of JSON. */
const MAX_PROJECTS_ANSWER_BYTES = 256 * 1024;

interface RepositoryNode {
  name?: unknown;
  owner?: { login?: unknown } | null;
  description?: unknown;
  primaryLanguage?: { name?: unknown; color?: unknown } | null;
  stargazerCount?: unknown;
  forkCount?: unknown;
}

function item(node: RepositoryNode, where: string): RepositoryItem {
  const login = node.owner?.login;
  const language = node.primaryLanguage;
  const fail = (what: string) => new UpstreamError('github-graphql', `${where}: ${what}`);
  if (typeof node.name !== 'string' || typeof login !== 'string') throw fail('no name or owner login');
  if (node.description !== null && node.description !== undefined && typeof node.description !== 'string')
    throw fail('description is not text');
  if (language !== null && language !== undefined && typeof language.name !== 'string')
    throw fail('primaryLanguage has no name');
  if (typeof node.stargazerCount !== 'number' || typeof node.forkCount !== 'number') throw fail('counts missing');
  return {
    owner: login,
    name: node.name,
    description: (node.description as string | null | undefined) ?? null,
    language: language ? (language.name as string) : null,
    languageColor: language && typeof language.color === 'string' ? language.color : null,
    stars: node.stargazerCount,
    forks: node.forkCount,
  };
}

/** The pinned repositories when there are any, else the popular ones; the shape checked. */
export function parseProjectsAnswer(data: unknown): { selection: Selection; items: RepositoryItem[] } {
  const user = (data as { user?: unknown } | null)?.user as
    { pinnedItems?: { nodes?: unknown }; repositories?: { nodes?: unknown } } | null | undefined;
  if (user === null) throw new UpstreamError('github-graphql', 'account not found (user is null)');
  const pinned = user?.pinnedItems?.nodes;
  const popular = user?.repositories?.nodes;
  if (!Array.isArray(pinned) || !Array.isArray(popular))
    throw new UpstreamError('github-graphql', 'answer has no pinnedItems.nodes or repositories.nodes array');
  // `... on Repository` leaves any other pinned item (a gist) an empty object: skipped, as the page skips it.
  const repositories = (pinned as RepositoryNode[]).filter((n) => !(n && typeof n === 'object' && !('name' in n)));
  if (repositories.length > 0)
    return { selection: 'pinned', items: repositories.map((n, i) => item(n ?? {}, `pinned item ${i + 1}`)) };
  return {
    selection: 'popular',
    items: (popular as RepositoryNode[]).map((n, i) => item(n ?? {}, `repository ${i + 1}`)),
  };
}

export function githubProjectsGraphql(apiUrl: string, token: string, account: string, http: HttpOptions) {
  const query = githubGraphql(apiUrl, token, account, http, MAX_PROJECTS_ANSWER_BYTES);
  return async () => parseProjectsAnswer(await query(PROJECTS_QUERY, {}));
}
