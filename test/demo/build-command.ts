// What the demo prints for a build of one's own against its simulated provider: every upstream (the market,
// the calendar page, the profile page and the REST counts, the picture) and the live feed, so that a build run
// exactly as printed asks nothing of any outside address.
import { datasetOriginsEnv } from '../fakes/env.ts';

/** A value as a POSIX shell word: bare when it is plainly safe, else single-quoted. */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]*$/.test(value) && value !== '' ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

export interface DemoUpstreams {
  /** The simulated provider: it answers the market, GitHub's pages and GitHub's REST API alike. */
  provider: string;
  /** The simulated live feed, or null when the demo runs none (MARKET_WS_URL=off or MARKET_PRODUCT=off). */
  feed: string | null;
  /**
   * The caller's own variables that the provider must agree with (GITHUB_ACCOUNT, MARKET_PRODUCT), when set:
   * the provider simulates one account and one product, so a build must ask for the same ones.
   */
  caller: Readonly<Record<string, string | undefined>>;
}

/** The variables of the caller's environment a build against the demo must repeat. */
export const REPEATED_VARIABLES = ['GITHUB_ACCOUNT', 'MARKET_PRODUCT'] as const;

/**
 * `DEMO_SIMULATED=1 … npm run build`. GITHUB_TOKEN is emptied (empty counts as unset): a real token of the
 * caller's shell is neither sent to the simulated provider nor refused by it.
 */
export function demoBuildCommand({ provider, feed, caller }: DemoUpstreams): string {
  const env: Array<[string, string]> = [
    ['DEMO_SIMULATED', '1'],
    ['MARKET_API_URL', provider],
    ['GITHUB_API_URL', provider],
    ['GITHUB_WEB_URL', provider],
    ...Object.entries(datasetOriginsEnv(provider)),
    ['GITHUB_TOKEN', ''],
    ['MARKET_WS_URL', feed ?? 'off'],
  ];
  for (const name of REPEATED_VARIABLES) {
    const value = caller[name]?.trim();
    if (value) env.push([name, value]);
  }
  return `${env.map(([name, value]) => `${name}=${value === '' ? '' : shellWord(value)}`).join(' ')} npm run build`;
}

/**
 * What the simulated provider's 404 says for an account it does not simulate: site/ (or GITHUB_ACCOUNT) now
 * names another account than the one the running demo started with.
 */
export function restartHint(simulated: string): (login: string) => string {
  return (login) =>
    `this demo simulates GitHub account "${simulated}", not "${login}": stop it (Ctrl-C) and run npm run demo again`;
}
