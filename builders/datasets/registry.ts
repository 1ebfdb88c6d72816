// The registry: the datasets a deployment publishes, in the order every document lists them, and the
// deployment a program builds from them once, at its start (docs/architecture.md#add-a-dataset). One line
// per dataset; MARKET_PRODUCT=off leaves the market out altogether.
import type { Config } from '../lib/config.ts';
import { DEFAULT_MARKET_PRODUCT, DEFAULT_TIME_ZONE } from '../lib/service-defaults.ts';
import {
  narrowedTables,
  serviceTablesOf,
  type DataResource,
  type DataResourceId,
  type ServiceTables,
} from '../contract/service.ts';
import type { JsonSchema, Validator } from '../contract/schemas.ts';
import type { DescribedDatasets } from '../contract/openapi.ts';
import type { HttpOptions } from '../upstreams/http.ts';
import type { Dataset, DatasetSource } from './dataset.ts';
import { marketDataset } from './market/index.ts';
import { contributionsDataset } from './contributions/index.ts';
import { streakDataset } from './streak/index.ts';
import { projectsDataset } from './projects/index.ts';
import { languagesDataset } from './languages/index.ts';

/** What of the configuration chooses the datasets: the market's product (null: none) and the calendar's zone. */
export interface ServiceOptions {
  /** A Coinbase Exchange product quoted in USD (`<BASE>-USD`), or null for MARKET_PRODUCT=off. */
  marketProduct: string | null;
  /** The calendar's IANA zone. */
  calendarTimeZone: string;
}

/** The options of a deployment with no variable set: MON-USD and America/Toronto. */
export const DEFAULT_SERVICE_OPTIONS: ServiceOptions = {
  marketProduct: DEFAULT_MARKET_PRODUCT,
  calendarTimeZone: DEFAULT_TIME_ZONE,
};

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
    languagesDataset(),
  ] as Dataset[];
}

/** The variables and the secrets the upstreams of these datasets declare as their own (docs/architecture.md#add-a-dataset). */
export function ownVariables(list: readonly Dataset[]): { variables: string[]; secrets: string[]; origins: string[] } {
  const upstreams = list.flatMap((d) => ('upstream' in d.origin ? [d.origin.upstream] : []));
  return {
    variables: [...new Set(upstreams.flatMap((u) => u.variables ?? []))],
    secrets: [...new Set(upstreams.flatMap((u) => u.secrets ?? []))],
    origins: [...new Set(upstreams.flatMap((u) => (u.originVariable === undefined ? [] : [u.originVariable])))],
  };
}

/** The route table (builders/contract/service.ts) of these datasets. */
export function tablesOf(list: readonly Dataset[]): ServiceTables {
  return serviceTablesOf(list.map((d) => d.resource));
}

/** The route table of the datasets of `options`: what a program without a deployment (the CLI) reads. */
export function serviceTables(options: ServiceOptions): ServiceTables {
  return tablesOf(datasets(options));
}

/** The tables of a deployment with no variable set: MON-USD and America/Toronto. */
export const DEFAULT_SERVICE = /* @__PURE__ */ serviceTables(DEFAULT_SERVICE_OPTIONS);

/** Each sourced dataset's upstream, connected once (datasets/<id>/source.ts), by the dataset's id. */
export type Sources = ReadonlyMap<DataResourceId, DatasetSource<unknown>>;

/** Connects every dataset that has its own upstream, with the program's rules for outgoing requests. */
export function connectSources(list: readonly Dataset[], config: Config, http: HttpOptions): Sources {
  return new Map(
    list.flatMap(({ resource, origin }) =>
      'upstream' in origin ? [[resource.id, origin.upstream.connect(config, http)] as const] : [],
    ),
  );
}

/**
 * What a program builds once, at its start, from its configuration, and passes down: the datasets, their
 * route table, the schemas and a validator of payloads, and the datasets' sources. Nothing below a program
 * builds any of it again.
 */
export interface Deployment {
  config: Config;
  datasets: readonly Dataset[];
  service: ServiceTables;
  schemas: Map<string, JsonSchema>;
  validator: Validator;
  sources: Sources;
}

/** How a runtime makes the parts of a deployment that differ between runtimes. */
export interface DeploymentParts {
  /** The schema files, for this deployment's tables (Node reads schemas/; a Worker has them bundled). */
  schemas(service: ServiceTables): Map<string, JsonSchema>;
  /** Payload validation (ajv on Node; precompiled validators where code generation is forbidden). */
  validator(schemas: Map<string, JsonSchema>): Validator;
  /** The rules of the program's upstream requests (builders/upstreams/http.ts, httpOptions). */
  http: HttpOptions;
  /** The sources as connected, changed by the runtime (a Worker shares the calendar's reading). Default: as they are. */
  sources?(connected: Sources): Sources;
}

/** `list`: the configuration's datasets, when the program has them already. */
export function createDeployment(
  config: Config,
  parts: DeploymentParts,
  list: readonly Dataset[] = datasets(config),
): Deployment {
  const service = tablesOf(list);
  const schemas = parts.schemas(service);
  const connected = connectSources(list, config, parts.http);
  return {
    config,
    datasets: list,
    service,
    schemas,
    validator: parts.validator(schemas),
    sources: parts.sources?.(connected) ?? connected,
  };
}

/**
 * What the OpenAPI document says of a deployment's datasets, with this build's payloads as examples; of
 * those `keep` accepts (a build's static document describes only the datasets it publishes).
 */
export function describedDatasets(
  deployment: Pick<Deployment, 'config' | 'datasets' | 'service'>,
  snapshots: ReadonlyMap<DataResourceId, unknown>,
  keep: (resource: DataResource) => boolean = () => true,
): DescribedDatasets {
  const { config } = deployment;
  return {
    service: narrowedTables(deployment.service, keep),
    snapshots,
    phrases: new Map(deployment.datasets.map((d) => [d.resource.id, d.prose(config)])),
  };
}
