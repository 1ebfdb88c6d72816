// What a build writes into the site from the configuration (see prune.ts, SiteIdentity). A module of its
// own so that the gateway can compare settings at start without loading the site generator.
import type { Config } from '../core/config.ts';
import type { SiteIdentity } from './prune.ts';

/** What this build writes into the site from the configuration (see prune.ts, SiteIdentity). */
export function siteIdentity(config: Config, simulated: boolean): SiteIdentity {
  return {
    SITE_URL: config.siteUrl,
    GITHUB_ACCOUNT: config.githubAccount,
    MARKET_SOURCE_NAME: config.marketSourceName,
    DEMO_SIMULATED: String(simulated),
  };
}
