// The owner's projects (docs/data-rules.md#projects): the repositories their GitHub profile shows, pinned
// else popular, with exact stars and forks, read at most once an hour. Everything the service says and does
// about it is declared here, its upstream included (source.ts).
import type { Config } from '../../lib/config.ts';
import { CACHE_CONTROL, CONSTANTS, dataPaths, type DataResource } from '../../contract/service.ts';
import { MAX_PROJECTS, PROJECTS_REUSE_MAX_MS, projectsReuse, type GitHubProjects } from './rule.ts';
import { escapeHtml } from '../../render/html.ts';
import { githubProfileUrl } from '../../contract/pages.ts';
import { view } from './view.ts';
import { picture } from './picture.ts';
import type { Dataset } from '../dataset.ts';
import { projectsCard, repositoryCard, repositoryCardName, SIMULATED_PROJECTS_SOURCE } from './card.ts';
import { projectsUpstream } from './source.ts';
import { projectsMarkdown } from './markdown.ts';

export const projectsResource: DataResource = {
  id: 'projects',
  title: 'Projects',
  summary: `The GitHub repositories the account pins on its profile (else its most-starred own public repositories), at most ${MAX_PROJECTS}, with exact stars and forks.`,
  schema: 'GitHubProjects',
  ...dataPaths('github-projects', 'GithubProjects'),
  cache: 'hourly',
  problem: {
    detail: 'GitHub gave no usable list of the repositories on the profile.',
    error: 'Project data is unavailable.',
  },
  toolText: `Returns the repositories one fixed GitHub account shows on its profile (pinned, else popular), at most ${MAX_PROJECTS}, each with its URL, description, language, exact stars and forks (read at most once an hour).`,
  card: 'github-projects',
  cardOrder: 4,
  cardFolder: 'repos',
  // A list of repositories changes slowly: current for as long as --previous may republish it
  // (docs/data-rules.md#projects), not stale after the market's 3 h.
  validForMs: PROJECTS_REUSE_MAX_MS,
  phrase: 'the GitHub projects of the account',
  command: {
    name: 'projects',
    summary: 'The projects: the pinned (else popular) repositories, with language, stars and forks.',
    readsSimulated: true,
    // The home page lists the owner's projects.yaml after GitHub's, and so does the command.
    listsOwnerProjects: true,
    json: [
      { name: 'username', type: 'string', description: 'the GitHub account' },
      { name: 'selection', type: '"pinned" | "popular"', description: 'pinned when the profile pins any' },
      { name: 'asOf', type: 'string', description: 'when GitHub answered (ISO 8601)' },
      {
        name: 'projects',
        type: '{owner, name, url, description, language, languageColor, stars, forks}[]',
        description: `at most ${MAX_PROJECTS}, in the profile's order`,
      },
    ],
  },
};

export function projectsDataset(): Dataset<GitHubProjects> {
  const resource = projectsResource;
  return {
    resource,
    origin: { upstream: projectsUpstream },
    reuse: {
      check: (payload, nowMs, config) => projectsReuse(payload, nowMs, { username: config.githubAccount }),
      age: (payload, age) => `${age} old (read at ${payload.asOf})`,
    },
    card: (payload, theme, ctx) => projectsCard(payload, theme, ctx.simulated),
    // A name starting with a dot (`.github`) would be a dot-file under cards/, which no host serves.
    moreCards: (payload) =>
      payload.projects
        .filter((p) => !p.name.startsWith('.'))
        .map((p) => ({
          name: repositoryCardName(p),
          draw: (theme, ctx) => repositoryCard(payload, p, theme, ctx.simulated),
        })),
    view,
    picture,
    home: {
      title: () => escapeHtml(resource.title),
      after: (ctx, payload) =>
        `<p class="disclaimer">${
          ctx.simulated
            ? `Source: ${escapeHtml(SIMULATED_PROJECTS_SOURCE)}.`
            : `The ${payload?.selection === 'popular' ? 'popular' : 'pinned'} repositories of <a href="${escapeHtml(githubProfileUrl(ctx.config.githubAccount))}">${escapeHtml(ctx.config.githubAccount)}</a> on GitHub.`
        }</p>`,
      // The owner's work: after the person, before the live data (docs/site.md), said "as of" its time
      // and current for the resource's validForMs.
      work: { markdown: projectsMarkdown },
    },
    example: (payload) => ({ json: JSON.stringify(payload, null, 2), note: 'A real snapshot from this build.' }),
    prose: (config: Config) => ({
      short: 'GitHub projects',
      openapi: `the repositories GitHub account \`${config.githubAccount}\` pins on its profile (else its most-starred ones), with exact stars and forks`,
      llms: `the GitHub projects (pinned, else popular repositories) of \`${config.githubAccount}\``,
      developers: `the **projects** of GitHub account \`${config.githubAccount}\` (the repositories its profile pins, else its most-starred own public ones, at most ${MAX_PROJECTS}, with exact stars and forks)`,
      caching: `\`Cache-Control: ${CACHE_CONTROL.data('hourly')}\`, or \`${CACHE_CONTROL.perClient}\` when the answer carries per-client quota headers. The server asks GitHub at most once an hour (${CONSTANTS.hourSeconds} s) and keeps the answer meanwhile.`,
      liveNoun: 'projects',
      mcpRule: 'the projects are read from GitHub at most once an hour',
      staticName: 'the projects',
    }),
  };
}
