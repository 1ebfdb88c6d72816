// Pure GitHubProjects builder (docs/data-rules.md#projects): (repositories as either GitHub source read
// them, the build's time) → payload, and when a previous projects snapshot may stand in for a fresh one.
import { UpstreamError, type UpstreamName } from '../../lib/errors.ts';
import { withoutInvisible } from '../../lib/text/unicode.ts';
import type { GitHubProject, GitHubProjects } from '../../contract/payload-types.ts';
import type { Reuse } from '../../domain/reuse.ts';

// The payload's types come from its schema (builders/contract/payload-types.ts, generated from schemas/).
export type { GitHubProject, GitHubProjects } from '../../contract/payload-types.ts';

/** A profile shows at most six pinned or popular repositories. */
export const MAX_PROJECTS = 6;
/** `--previous` may republish a projects snapshot up to a week old (docs/data-rules.md#projects). */
export const PROJECTS_REUSE_MAX_MS = 7 * 24 * 3_600_000;

/** A GitHub login, and a repository name (never `.` or `..`), as GitHub allows them. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
/** `#` and six hex digits exactly, as GitHub gives a language's colour. */
const COLOR = /^#[0-9A-Fa-f]{6}$/;

/** One repository as a source read it, before the payload's rules. */
export interface RepositoryItem {
  owner: string;
  name: string;
  description: string | null;
  language: string | null;
  languageColor: string | null;
  stars: number;
  forks: number;
}

export type Selection = GitHubProjects['selection'];

/**
 * Whitespace (and any control character, which no XML card could hold) collapsed and trimmed, and the
 * invisible bidi and zero-width characters dropped (builders/lib/text/unicode.ts: U+202E would turn the text around in
 * every page, card and terminal that shows it); null when nothing is left.
 */
export function collapsedText(text: string | null | undefined): string | null {
  const collapsed = withoutInvisible(text ?? '')
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return collapsed === '' ? null : collapsed;
}

/** Why `owner`/`name` is not a GitHub repository's, in words that quote neither, or undefined. */
export function repositoryFault(owner: string, name: string): string | undefined {
  if (!OWNER.test(owner)) return 'its owner is not a GitHub login';
  if (!NAME.test(name) || name === '.' || name === '..') return 'its name is not a repository name';
  return undefined;
}

export function repositoryUrl(owner: string, name: string): string {
  return `https://github.com/${owner}/${name}`;
}

/**
 * The payload from what a source read: each item checked (a login and a name GitHub could have, exact
 * non-negative counts), its URL built from owner and name, never taken from the upstream. An item that
 * fails makes the whole answer unusable; its text is not quoted, since it is someone else's markup.
 */
export function buildProjects(
  upstream: UpstreamName,
  username: string,
  selection: Selection,
  items: readonly RepositoryItem[],
  nowMs: number,
): GitHubProjects {
  const projects = items.slice(0, MAX_PROJECTS).map((item, i): GitHubProject => {
    const which = `repository ${i + 1}`;
    const fault = repositoryFault(item.owner, item.name);
    if (fault !== undefined) throw new UpstreamError(upstream, `${which}: ${fault}`);
    for (const [field, count] of [
      ['stars', item.stars],
      ['forks', item.forks],
    ] as const)
      if (!Number.isSafeInteger(count) || count < 0)
        throw new UpstreamError(upstream, `${which}: its ${field} is not an exact count`);
    const color = item.languageColor?.trim() ?? null;
    return {
      owner: item.owner,
      name: item.name,
      url: repositoryUrl(item.owner, item.name),
      description: collapsedText(item.description),
      language: collapsedText(item.language),
      languageColor: color !== null && COLOR.test(color) ? color : null,
      stars: item.stars,
      forks: item.forks,
    };
  });
  return { username, selection, asOf: new Date(nowMs).toISOString(), projects };
}

/**
 * A projects snapshot may be republished while it is the configured account's and its `asOf` is neither
 * in the future nor more than PROJECTS_REUSE_MAX_MS before `nowMs`.
 */
export function projectsReuse(snapshot: GitHubProjects, nowMs: number, expected: { username: string }): Reuse {
  if (snapshot.username.toLowerCase() !== expected.username.toLowerCase())
    return {
      reusable: false,
      reason: `it is the account ${JSON.stringify(snapshot.username)}'s, not ${JSON.stringify(expected.username)}'s`,
    };
  const asOfMs = Date.parse(snapshot.asOf);
  const ageMs = nowMs - asOfMs;
  if (!Number.isFinite(asOfMs) || ageMs < 0)
    return { reusable: false, reason: `its asOf ${snapshot.asOf} is later than now` };
  if (ageMs > PROJECTS_REUSE_MAX_MS)
    return { reusable: false, reason: `its asOf ${snapshot.asOf} is more than 7 days old` };
  return { reusable: true, ageMs };
}
