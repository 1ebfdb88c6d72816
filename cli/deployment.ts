// The deployment this copy of the CLI belongs to: its market product (or none, MARKET_PRODUCT=off) and
// its calendar's zone, baked in by builders/cli-artifact.ts (esbuild `define`) like the default site, so
// that `price` reads the route the site publishes. Unbundled there is no build: the defaults.
import { DEFAULT_SERVICE, serviceTables, type ServiceOptions, type ServiceTables } from '../contract/service.ts';

declare const __CLI_SERVICE__: string | undefined;
export const DEPLOYMENT: ServiceTables =
  typeof __CLI_SERVICE__ === 'string' ? serviceTables(JSON.parse(__CLI_SERVICE__) as ServiceOptions) : DEFAULT_SERVICE;
