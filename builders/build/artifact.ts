// What every generator hands the build: files for dist/, relative paths, never written by the generator itself.
import { createHash } from 'node:crypto';
import type { Config } from '../lib/config.ts';
import type { Validator } from '../contract/schemas.ts';
import { narrowedTables, type DataResourceId, type ServiceTables } from '../contract/service.ts';
import type { Dataset } from '../datasets/dataset.ts';
import type { Look } from '../render/themes.ts';
import type { Picture } from '../lib/image-type.ts';
import type { ContentStore } from '../lib/cache/content-store.ts';

export interface Artifact {
  /** Path relative to dist/, with forward slashes, e.g. "api/index.json". */
  file: string;
  body: string | Uint8Array | StagedBody;
}

/**
 * Bytes a generator put in the build's staging folder (BuildContext.staging) rather than keep in memory
 * until the build writes them: the preview pictures, 40 kB each, 130 MB for 3,000 writings
 * (docs/performance.md#content-at-scale-issue-41). The build copies the file into place, never reading it
 * back: what it records of the bytes was taken when they were staged.
 */
export interface StagedBody {
  /** The file in the staging folder. */
  staged: string;
  /** fileHash of its bytes. */
  hash: string;
  /** Its size in bytes. */
  size: number;
}

/** An artifact whose bytes are in memory (what the build writes beside it: its compressed copies). */
export interface InMemoryArtifact extends Artifact {
  body: string | Uint8Array;
}

export function isStaged(body: Artifact['body']): body is StagedBody {
  return typeof body === 'object' && 'staged' in body;
}

/** What earlier builds made and kept (BUILD_CACHE_DIR, builders/lib/cache/content-store.ts): their pictures and compressed copies. */
export interface BuildCache {
  pictures?: ContentStore;
  copies?: ContentStore;
}

export interface BuildContext {
  config: Config;
  /** The deployment's routes, cards and zone (MARKET_PRODUCT, CALENDAR_TIME_ZONE). */
  service: ServiceTables;
  /** The build's "now" (SOURCE_DATE_EPOCH when set), in Unix milliseconds. */
  nowMs: number;
  /** The deployment's datasets (builders/datasets/registry.ts), in the order the documents list them. */
  datasets: readonly Dataset[];
  /** The payloads this build publishes, by dataset; none for a dataset whose source failed (its pages say so, nothing is invented). */
  payloads: ReadonlyMap<DataResourceId, unknown>;
  validator: Validator;
  /** True for `npm run demo`: the data come from the simulated upstream and every page says so. */
  simulated: boolean;
  /** The site's content folder, when not site/ (the tests build a content of their own). */
  contentDir?: URL;
  /** The owner's theme and accent (site.json), both variants: every page and card is drawn in it. */
  look: Look;
  /**
   * A folder of this build's own, removed when the build ends, where a generator may stage large bytes
   * (StagedBody); none: they are kept in memory (a test rendering the site without writing it).
   */
  staging?: string;
  /** The owner's picture as the site publishes it, when there is one (builders/avatar.ts). */
  avatar?: PublishedAvatar | null;
  /** The writings' pictures as published, by their URL in the writing (builders/build/content/published-pictures.ts); none: no picture. */
  pictures?: PublishedPictures;
  /** What earlier builds made and kept; none: everything is made afresh. */
  cache?: BuildCache;
  /** The writings' search index, when the build made it on a thread of its own (pages/writings/writing-search.ts). */
  searchIndex?: string;
  /** What this build did for each dataset (status.json, the unavailable cards); none: every payload is fresh. */
  outcomes?: ReadonlyMap<DataResourceId, DatasetOutcome>;
  /** site.json's words for the pages (the header's links, the Writings description), set by renderSite from the content. */
  pages?: SitePages;
}

/** One link of every page's header: a page of this site, by its path. */
export interface HeaderLink {
  label: string;
  /** The page's path without the site's base path (`/`, `/writings`). */
  path: string;
}

/** What site.json says of the pages beyond the identity (builders/build/content/site-pages.ts reads it). */
export interface SitePages {
  /** The header's links, in order; `/resume` only when the site has a résumé. */
  header: HeaderLink[];
  /** The Writings page's description: its lede, meta and share picture, and the feeds' description. */
  writingsDescription: string;
}

/** A writing's picture as the site publishes it: its file in dist/, its path on the site, its size and bytes. */
export interface PublishedPicture {
  file: string;
  path: string;
  width: number;
  height: number;
  bytes: Uint8Array;
}

/** The published picture of each URL the writings name (as written); null for one that could not be fetched. */
export type PublishedPictures = ReadonlyMap<string, PublishedPicture | null>;

/** The owner's picture in dist/: `assets/avatar.<png|jpg|webp>`, served by the site itself (img-src 'self'). */
export interface PublishedAvatar {
  /** Its file under dist/, and its root-relative path. */
  file: string;
  path: string;
  picture: Picture;
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

/**
 * The datasets this build publishes: every registered one but those missing (no snapshot written). The one
 * place the build's outcomes narrow what the documents list: the API index, the catalog, OpenAPI, the
 * developer page and the llms files link no data path that the site would answer with a 404. The gateway
 * serves every registered dataset live and describes them all (gateway/http/openapi-document.ts).
 *
 * When every dataset is missing (an offline first start), all stay listed: the API index's contract holds at
 * least one route (schemas/ApiIndex.schema.json), status.json says each is missing, and `npm run check:dist
 * -- --allow-missing-data` accepts such a site.
 */
export function publishedDatasets(ctx: Pick<BuildContext, 'datasets' | 'outcomes'>): readonly Dataset[] {
  const published = ctx.datasets.filter((d) => ctx.outcomes?.get(d.resource.id)?.state !== 'missing');
  return published.length > 0 ? published : ctx.datasets;
}

/** The route table of what this build publishes (publishedDatasets): its resources and paths; every card. */
export function publishedService(ctx: Pick<BuildContext, 'datasets' | 'outcomes' | 'service'>): ServiceTables {
  const published = new Set(publishedDatasets(ctx).map((d) => d.resource.id));
  return narrowedTables(ctx.service, (r) => published.has(r.id));
}

/** A file's bytes as the record keeps them: SHA-256, 32 hex digits. */
export function fileHash(body: string | Uint8Array): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 32);
}
