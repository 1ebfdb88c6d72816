// The owner's languages (README.md of this folder): the bytes per language GitHub's linguist reports,
// summed over the account's own public repositories (forks excluded, at most 100, the most recently pushed
// first), less what the owner's site.json leaves out, read at most once an hour. Everything the service
// says and does about it is declared in this folder, its upstream, its schema and its fake included.
import type { Config } from '../../lib/config.ts';
import { CACHE_CONTROL, CONSTANTS, dataPaths, type DataResource } from '../../contract/service.ts';
import { githubProfileUrl } from '../../contract/pages.ts';
import { escapeHtml } from '../../render/html.ts';
import { shortened, type Dataset } from '../dataset.ts';
import { view, SHOWN_LANGUAGES, type GitHubLanguages } from './view.ts';
import { picture } from './picture.ts';
import { languagesCard, SIMULATED_LANGUAGES_SOURCE } from './card.ts';
import { languagesUpstream } from './source.ts';
import { languagesMarkdown } from './markdown.ts';
import { LANGUAGES_REUSE_MAX_MS, MAX_REPOSITORIES, MAX_REST_REPOSITORIES, languagesReuse } from './rule.ts';
import { languagesSettings } from './settings.ts';

export const languagesResource: DataResource = {
  id: 'languages',
  title: 'Languages',
  summary: `Bytes per language over the account's own public repositories (forks excluded, at most ${MAX_REPOSITORIES}), largest first, with each share.`,
  schema: 'GitHubLanguages',
  ...dataPaths('github-languages', 'GithubLanguages'),
  cache: 'hourly',
  problem: {
    detail: 'GitHub gave no usable language sizes.',
    error: 'Language data is unavailable.',
  },
  toolText: `Returns the bytes per language of one fixed GitHub account's own public repositories (forks excluded, at most ${MAX_REPOSITORIES}), largest first, each with its colour and share (read at most once an hour).`,
  card: 'github-languages',
  cardOrder: 5,
  // A language breakdown changes slowly: current for as long as --previous may republish it.
  validForMs: LANGUAGES_REUSE_MAX_MS,
  phrase: 'the GitHub languages of the account',
  command: {
    name: 'languages',
    summary: 'The languages: bytes and share of each, over the public repositories.',
    readsSimulated: true,
    json: [
      { name: 'username', type: 'string', description: 'the GitHub account' },
      { name: 'asOf', type: 'string', description: 'when GitHub answered (ISO 8601)' },
      { name: 'repositories', type: 'number', description: 'repositories summed' },
      { name: 'totalBytes', type: 'number', description: 'their sum' },
      { name: 'languages', type: '{name, color, bytes, percent}[]', description: 'largest first' },
    ],
  },
};

export function languagesDataset(): Dataset<GitHubLanguages> {
  const resource = languagesResource;
  return {
    resource,
    origin: { upstream: languagesUpstream },
    reuse: {
      check: (payload, nowMs, config) =>
        languagesReuse(payload, nowMs, { username: config.githubAccount, hide: languagesSettings(config).hide }),
      age: (payload, age) => `${age} old (read at ${payload.asOf})`,
    },
    card: (payload, theme, ctx) => languagesCard(payload, theme, ctx.simulated),
    view,
    picture,
    home: {
      title: () => escapeHtml(resource.title),
      after: (ctx) =>
        `<p class="disclaimer">${
          ctx.simulated
            ? `Source: ${escapeHtml(SIMULATED_LANGUAGES_SOURCE)}.`
            : `Bytes per language in the public repositories of <a href="${escapeHtml(githubProfileUrl(ctx.config.githubAccount))}">${escapeHtml(ctx.config.githubAccount)}</a> on GitHub (forks excluded), as GitHub's linguist counts them; the ${SHOWN_LANGUAGES} largest, then the rest as Other.`
        }</p>`,
      // The owner's work, after the projects: said "as of" its time and current for validForMs.
      work: { markdown: languagesMarkdown },
    },
    example: (payload) =>
      payload.languages.length > 3
        ? shortened(payload, 'languages')
        : { json: JSON.stringify(payload, null, 2), note: 'A real snapshot from this build.' },
    prose: (config: Config) => ({
      short: 'GitHub languages',
      openapi: `the bytes per language of GitHub account \`${config.githubAccount}\`'s own public repositories (forks excluded, at most ${MAX_REPOSITORIES}), as GitHub's linguist counts them, with each share`,
      llms: `the GitHub languages (bytes per language over the public repositories) of \`${config.githubAccount}\``,
      developers: `the **languages** of GitHub account \`${config.githubAccount}\` (the bytes per language GitHub's linguist reports, summed over its own public repositories, forks excluded, at most ${MAX_REPOSITORIES} with a token and ${MAX_REST_REPOSITORIES} without, the most recently pushed first; largest first, each with its colour and its share)`,
      caching: `\`Cache-Control: ${CACHE_CONTROL.data('hourly')}\`, or \`${CACHE_CONTROL.perClient}\` when the answer carries per-client quota headers. The server asks GitHub at most once an hour (${CONSTANTS.hourSeconds} s) and keeps the answer meanwhile.`,
      liveNoun: 'languages',
      mcpRule: 'the languages are read from GitHub at most once an hour',
      staticName: 'the languages',
    }),
  };
}
