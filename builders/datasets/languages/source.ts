// Where the languages come from (README.md of this folder, "The upstream"): with GITHUB_TOKEN, one GraphQL
// query; without, one REST list and at most 30 REST language answers. Connected once per program from its
// configuration, the owner's site.json section checked then (exit 2 on a mistake); the build and the
// gateway fetch through the same function. cli.mjs carries none of this (builders/build/cli-artifact.ts
// stubs every datasets/<id>/source.ts), so neither linguist's table nor the clients.
import type { Config } from '../../lib/config.ts';
import type { HttpOptions } from '../../upstreams/http.ts';
import { CONSTANTS } from '../../contract/service.ts';
import type { DatasetSource, DatasetUpstream } from '../dataset.ts';
import { buildLanguages } from './rule.ts';
import { languagesSettings } from './settings.ts';
import { githubLanguagesGraphql } from './graphql.ts';
import { githubLanguagesRest } from './rest.ts';
import type { GitHubLanguages } from './view.ts';

/** The fetch of the languages of this instant, by the configured source. */
export function connectLanguages(config: Config, http: HttpOptions): (nowMs: number) => Promise<GitHubLanguages> {
  const account = config.githubAccount;
  const settings = languagesSettings(config);
  if (config.githubToken) {
    const read = githubLanguagesGraphql(config.githubApiUrl, config.githubToken, account, http, settings);
    return async (nowMs) => buildLanguages('github-graphql', account, await read(), settings, nowMs);
  }
  const read = githubLanguagesRest(config.githubApiUrl, account, http, settings);
  return async (nowMs) => buildLanguages('github-rest', account, await read(), settings, nowMs);
}

/** The hourly policy's period: the gateway asks GitHub at most once an hour, as the scheduled build does. */
const KEEP_MS = CONSTANTS.hourSeconds * 1000;

export const languagesUpstream: DatasetUpstream<GitHubLanguages> = {
  connect: (config, http): DatasetSource<GitHubLanguages> => ({
    fetch: connectLanguages(config, http),
    keptUntil: (_, fetchedAtMs) => fetchedAtMs + KEEP_MS,
  }),
};
