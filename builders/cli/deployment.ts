// The deployment this copy of the CLI belongs to: its datasets' routes and commands (MARKET_PRODUCT,
// CALENDAR_TIME_ZONE), baked in by builders/build/cli-artifact.ts (esbuild `define`) like the default site, so
// that each data command reads the route the site publishes. Unbundled there is no build: the registry's
// defaults. The bundle never reaches the registry (the branch folds away), so no dataset module's code
// and none of its packages ride along in cli.mjs.
import { serviceTablesOf, type ServiceTables } from '../contract/service.ts';
import { DEFAULT_SERVICE } from '../datasets/registry.ts';

declare const __CLI_SERVICE__: string | undefined;

/**
 * What the build bakes in (builders/build/cli-artifact.ts): the options, and of each resource what the CLI
 * reads (its command, route, alias and schema); the documents' texts and the cards stay out of cli.mjs.
 */
type BakedService = Pick<ServiceTables, 'resources'>;

function unbaked(baked: BakedService): ServiceTables {
  return serviceTablesOf(baked.resources);
}

export const DEPLOYMENT: ServiceTables =
  typeof __CLI_SERVICE__ === 'string' ? unbaked(JSON.parse(__CLI_SERVICE__) as BakedService) : DEFAULT_SERVICE;
