// The registry: the datasets a deployment publishes, in the order every document lists them. One line per
// dataset (docs/architecture.md#add-a-dataset); MARKET_PRODUCT=off leaves the market out altogether.
import type { Config } from '../lib/config.ts';
import {
  DEFAULT_SERVICE_OPTIONS,
  narrowedTables,
  serviceTablesOf,
  type DataResource,
  type DataResourceId,
  type ServiceOptions,
  type ServiceTables,
} from '../contract/service.ts';
import type { DescribedDatasets } from '../contract/openapi.ts';
import type { Dataset } from './dataset.ts';
import { marketDataset } from './market/index.ts';
import { contributionsDataset } from './contributions/index.ts';
import { streakDataset } from './streak/index.ts';
import { projectsDataset } from './projects/index.ts';

/**
 * The deployment's datasets, in the order every document lists them (a derived dataset after its origin).
 * Each module is typed by its own payload; the registry holds them alike, and every program hands a
 * dataset back only the payload its own schema validated.
 */
export function datasets(options: ServiceOptions): Dataset[] {
  return [
    ...(options.marketProduct === null ? [] : [marketDataset(options.marketProduct)]),
    contributionsDataset(options.calendarTimeZone),
    streakDataset(options.calendarTimeZone),
    projectsDataset(),
  ] as Dataset[];
}

/** The order the cards are listed in (serve.json, _headers): the calendar's first, as they were first published. */
const CARD_ORDER: readonly DataResourceId[] = ['contributions', 'market', 'streak', 'projects'];

/** The route table of a deployment (contract/service.ts), from its datasets. */
export function serviceTables(options: ServiceOptions): ServiceTables {
  return serviceTablesOf(
    { marketProduct: options.marketProduct, calendarTimeZone: options.calendarTimeZone },
    datasets(options).map((d) => d.resource),
    CARD_ORDER,
  );
}

/** The tables of a deployment with no variable set: MON-USD and America/Toronto. */
export const DEFAULT_SERVICE = /* @__PURE__ */ serviceTables(DEFAULT_SERVICE_OPTIONS);

/**
 * What the OpenAPI document says of a deployment's datasets, with this build's payloads as examples; of
 * those `keep` accepts (a build's static document describes only the datasets it publishes).
 */
export function describedDatasets(
  config: Config,
  snapshots: ReadonlyMap<DataResourceId, unknown>,
  keep: (resource: DataResource) => boolean = () => true,
): DescribedDatasets {
  return {
    service: narrowedTables(serviceTables(config), keep),
    snapshots,
    phrases: new Map(datasets(config).map((d) => [d.resource.id, d.prose(config)])),
  };
}
