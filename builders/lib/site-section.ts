// A dataset's own section of the site file (`"<section>": {…}`, docs/site.md), as the owner wrote it: its
// folder checks it when its upstream connects, and a mistake is a ConfigError naming `site/site.json` and
// the field (exit 2), as the look's are. Apart from config.ts, so that what a dataset's module reads of it
// carries nothing of the configuration's parsing into the CLI's bundle.
import type { Config } from './config.ts';

/** The section `section` of the site file, or undefined when the owner wrote none. */
export function siteSection(config: Pick<Config, 'site'>, section: string): unknown {
  return Object.hasOwn(config.site, section) ? (config.site as unknown as Record<string, unknown>)[section] : undefined;
}
