// Where the projects come from (docs/upstreams.md#projects): with GITHUB_TOKEN, GitHub's GraphQL API;
// without, the public profile page, its abbreviated counts read from the REST API. Connected once per
// program from its configuration; the build and the gateway fetch through the same function. cli.mjs, which
// draws the dataset but never fetches it, carries none of this (builders/build/cli-artifact.ts stubs every
// datasets/<id>/source.ts), so none of its packages.
import type { Config } from '../../lib/config.ts';
import type { HttpOptions } from '../../upstreams/http.ts';
import { CONSTANTS } from '../../contract/service.ts';
import { buildProjects, type GitHubProjects } from './rule.ts';
import type { DatasetSource, DatasetUpstream } from '../dataset.ts';
import { githubProjectsGraphql } from './graphql.ts';
import { githubProfileClient } from './profile-page.ts';

/** The fetch of the projects of this instant, by the configured source. */
export function connectProjects(config: Config, http: HttpOptions): (nowMs: number) => Promise<GitHubProjects> {
  {
    const account = config.githubAccount;
    if (config.githubToken) {
      const read = githubProjectsGraphql(config.githubApiUrl, config.githubToken, account, http);
      return async (nowMs) => {
        const { selection, items } = await read();
        return buildProjects('github-graphql', account, selection, items, nowMs);
      };
    }
    const read = githubProfileClient(config.githubWebUrl, config.githubApiUrl, account, http);
    return async (nowMs) => {
      const { selection, items } = await read();
      return buildProjects('github-profile', account, selection, items, nowMs);
    };
  }
}

/** The hourly policy's period: the gateway asks GitHub at most once an hour, as the scheduled build does. */
const KEEP_MS = CONSTANTS.hourSeconds * 1000;

export const projectsUpstream: DatasetUpstream<GitHubProjects> = {
  connect: (config, http): DatasetSource<GitHubProjects> => ({
    fetch: connectProjects(config, http),
    keptUntil: (_, fetchedAtMs) => fetchedAtMs + KEEP_MS,
  }),
};
