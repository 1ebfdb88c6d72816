// The environment of a program run against the fakes: the caller's, minus every variable that would reach
// a real upstream or carry a token, plus the variables that point every upstream at one fake server.
// Used by the tests, the demo, the benchmark and the resilience suite alike.
import { datasets, DEFAULT_SERVICE_OPTIONS, ownVariables } from '../../builders/datasets/registry.ts';

/** What the registry's datasets declare of their own (builders/datasets/dataset.ts, DatasetUpstream). */
const OWN = ownVariables(datasets(DEFAULT_SERVICE_OPTIONS));
const OWN_NAMES = new Set([...OWN.variables, ...OWN.secrets, ...OWN.origins]);

/** The environment of a child: the parent's minus anything that would reach a real upstream or token. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v !== undefined &&
      !OWN_NAMES.has(k) &&
      // A child is never part of the vitest run that spawned it (the recipe suite runs a vitest of its own).
      !k.startsWith('VITEST') &&
      !/^(GITHUB_|MARKET_|CALENDAR_|MCP_|RATE_LIMIT_|TRUST_PROXY|SITE_URL|SOURCE_DATE_EPOCH|DIST_DIR|PORT|HOST)/.test(k)
    )
      env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** The variables that point a dataset's own upstream at the fake server, where its folder's fake.ts answers. */
export function datasetOriginsEnv(url: string): Record<string, string> {
  return Object.fromEntries(OWN.origins.map((name) => [name, url]));
}

/**
 * The variables that point every upstream at one fake server; and this process's BUILD_CACHE_DIR, so that
 * the builds of one test run share the folder its global setup names (test/global-setup.ts).
 */
export function upstreamEnv(url: string): Record<string, string> {
  const cache = process.env.BUILD_CACHE_DIR;
  return {
    MARKET_API_URL: url,
    GITHUB_API_URL: url,
    GITHUB_WEB_URL: url,
    GITHUB_ACCOUNT: 'octocat',
    ...datasetOriginsEnv(url),
    ...(cache === undefined ? {} : { BUILD_CACHE_DIR: cache }),
  };
}
