// What every generator hands the build: files for dist/, relative paths, never written by the generator itself.
import type { Config } from '../lib/config.ts';
import type { Validator } from '../contract/schemas.ts';
import type { DataResourceId, ServiceTables } from '../contract/service.ts';
import type { Dataset } from '../datasets/dataset.ts';

export interface Artifact {
  /** Path relative to dist/, with forward slashes, e.g. "api/index.json". */
  file: string;
  body: string | Uint8Array;
}

export interface BuildContext {
  config: Config;
  /** The deployment's routes, cards and zone (MARKET_PRODUCT, CALENDAR_TIME_ZONE). */
  service: ServiceTables;
  /** The build's "now" (SOURCE_DATE_EPOCH when set), in Unix milliseconds. */
  nowMs: number;
  /** The deployment's datasets (datasets/registry.ts), in the order the documents list them. */
  datasets: readonly Dataset[];
  /** The payloads this build publishes, by dataset; none for a dataset whose source failed (its pages say so, nothing is invented). */
  payloads: ReadonlyMap<DataResourceId, unknown>;
  validator: Validator;
  /** True for `npm run demo`: the data come from the simulated upstream and every page says so. */
  simulated: boolean;
  /** The site's content folder, when not site/ (the tests build a content of their own). */
  contentDir?: URL;
  /** What this build did for each dataset (status.json, the unavailable cards); none: every payload is fresh. */
  outcomes?: ReadonlyMap<DataResourceId, DatasetOutcome>;
}

/**
 * A dataset's state in this build (docs/api.md#status): fetched now; republished from the previous site
 * (`--previous`), with its age; or missing, with the failure's one-line reason and, when a previous snapshot
 * was at hand, when its data were last available.
 */
export type DatasetOutcome =
  | { state: 'fresh' }
  | { state: 'reused'; ageMs: number }
  | { state: 'missing'; reason: string; lastAvailableMs?: number };
