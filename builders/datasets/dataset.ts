// What a dataset module declares (docs/architecture.md#add-a-dataset): its published resource (paths,
// operationIds, schema, cache policy, problem texts, tool and card names), where its data come from (its
// own upstream, datasets/<id>/source.ts, or another dataset it is derived from), when a previous snapshot may
// stand in for it, and how the site shows it: its card, its home-page section, its example on the
// developer page and its sentences in the documents. Every program iterates the
// registry (registry.ts) and none asks which dataset it holds.
import type { Config } from '../lib/config.ts';
import type { DataResource, DataResourceId, ServiceTables } from '../contract/service.ts';
import type { Reuse } from '../domain/reuse.ts';
import type { HttpOptions } from '../upstreams/http.ts';
import type { ChartTheme } from '../render/charts/theme.ts';
import type { HomeView, TerminalPicture } from '../render/dataset-view.ts';

/** What the site's renderers know of the build: its configuration and its "now". */
export interface SiteContext {
  config: Config;
  service: ServiceTables;
  nowMs: number;
  simulated: boolean;
}

/**
 * A dataset's upstream as one program holds it, connected once from its configuration
 * (datasets/<id>/source.ts): how the build fetches it and how the gateway serves it live.
 */
export interface DatasetSource<P> {
  /** One payload of this instant: what the build publishes, and what the gateway keeps (a kept policy). */
  fetch(nowMs: number): Promise<P>;
  /**
   * How the gateway reads it for every request (the `per-request` policy), sharing what may be shared
   * (the market's candle history): `check` validates a payload before anything of it is reused.
   * Absent: `fetch`.
   */
  live?(options: { shared: boolean; now: () => number; check(payload: P): void }): () => Promise<P>;
  /** Until when a kept answer stands (a kept policy: `until-midnight`, `hourly`), from the payload and when its fetch began. */
  keptUntil?(payload: P, fetchedAtMs: number): number;
  /** Until when a fetch begun at `nowMs` may answer requests (the calendar's: that day's midnight). Absent: until it settles. */
  answersUntil?(nowMs: number): number;
  /** The payload's bytes as JSON.stringify writes them, when the dataset writes them faster (the market's). */
  json?(): (payload: P) => string;
  /**
   * The upstream's reading split from the payload rule, so that a runtime may share one reading among its
   * instances (a Worker's Durable Object, gateway/worker/calendar-day.ts): `key` names what a reading is
   * for (the calendar's day, source and account). Absent: nothing is shared beyond one instance.
   */
  shared?: SharedReading<P>;
}

/** A reading of the upstream and the pure rule that makes the payload from it (DatasetSource.shared). */
export interface SharedReading<P> {
  key(nowMs: number): string;
  read(nowMs: number): Promise<unknown>;
  payload(reading: unknown, nowMs: number): P;
}

/** A dataset's own upstream, declared in its folder (datasets/<id>/source.ts). */
export interface DatasetUpstream<P> {
  /** Connects once per program, from its configuration and its rules for outgoing requests. */
  connect(config: Config, http: HttpOptions): DatasetSource<P>;
  /**
   * The names of its own variables (read with `datasetVariables` as it connects), which `npm run
   * build:edge` bakes into the Worker's bundle beside the service's own.
   */
  variables?: readonly string[];
  /**
   * Of its variables, the one naming its upstream's origin, as MARKET_API_URL names Coinbase's: the tests,
   * the demo and the bench point it at their fake server, where the folder's `fake.ts` answers.
   */
  originVariable?: string;
  /** Its own secrets (a token): never baked; the Worker reads them from its bindings (`wrangler secret put`). */
  secrets?: readonly string[];
}

/** Where a dataset's data come from: its own upstream, or the payload of another dataset of the same instant. */
export type DataOrigin<P> =
  | { upstream: DatasetUpstream<P> }
  | {
      derivedFrom: DataResourceId;
      /** The payload from the other dataset's (schema-valid) payload: pure, no upstream call. */
      derive(from: unknown, config: Config): P;
    };

/** The dataset's sentences in the documents that describe the whole service. */
export interface DatasetProse {
  /** The info summary of the OpenAPI document: "GitHub contribution calendar". */
  short: string;
  /** OpenAPI description (CommonMark; operator strings as text). */
  openapi: string;
  /** llms.txt: "the GitHub contribution calendar of `octocat`". */
  llms: string;
  /** The developer page's opening sentence (Markdown). */
  developers: string;
  /** A call-out under the developer page's opening sentence. */
  callout?: string;
  /** Its Cache-Control in words, with what the gateway keeps (developer page). */
  caching: string;
  /** Added to `caching` in the developer page's list of headers. */
  cachingNote?: string;
  /** How the MCP section names what a static host cannot serve of it ("ticker"). */
  liveNoun: string;
  /** The MCP tools' rule that differs from a plain read ("the calendar is kept until ..."). */
  mcpRule?: string;
  /** What only the gateway can compute of it, in the static-hosting section ("the live ticker"). */
  liveWork?: string;
  /** How the static-hosting section names it: "the calendar". */
  staticName: string;
}

/**
 * A figure of the home page (`data-preview` = the dataset's id), refreshed by the page script from
 * `resource.v1.path` with the dataset's view (`view.ts`) unless it is `work`: its body is the view's.
 */
export interface HomeSection<P> {
  /** Its heading, HTML. */
  title(ctx: SiteContext): string;
  /** What follows the body (its source, a disclaimer), HTML. */
  after(ctx: SiteContext, payload: P | null): string;
  /** More attributes of the figure, each with its leading space (the market's live feed), or none. */
  attributes?(ctx: SiteContext, payload: P | null): string;
  /**
   * The owner's work rather than live data (the projects): shown after the person and before the live
   * data, as the build drew it (the page script fetches nothing for it: the page is rebuilt as often as
   * the data change), and said current, "as of" its `asOf`, for its resource's `validForMs` after it.
   * `markdown` is the same list in the home page's Markdown twin (/index.md), read by agents and feeds.
   */
  work?: { markdown(payload: P): string };
}

export interface Dataset<P = unknown> {
  resource: DataResource;
  origin: DataOrigin<P>;
  /**
   * Whether a previous snapshot may be published again when the source gives nothing now (builders/domain/reuse.ts),
   * and how the stderr line says its age. A derived dataset has none: it is derived again from what stood in.
   */
  reuse?: {
    check(payload: P, nowMs: number, config: Config, service: ServiceTables): Reuse;
    /** How old its data are, in words, from `age` ("2 h 5 min"). */
    age(payload: P, age: string): string;
  };
  /** The card (a whole SVG document) of the build's payload. */
  card(payload: P, theme: ChartTheme, ctx: Pick<SiteContext, 'nowMs' | 'simulated'>): string;
  /**
   * More cards drawn from the payload (the projects' one per repository), each at
   * `cards/<resource.cardFolder>/<name>.svg` and, dark, `cards/<resource.cardFolder>-dark/<name>.svg`
   * (builders/contract/service.ts, folderCardFile). Absent: the one card only.
   */
  moreCards?(
    payload: P,
  ): Array<{ name: string; draw(theme: ChartTheme, ctx: Pick<SiteContext, 'nowMs' | 'simulated'>): string }>;
  home: HomeSection<P>;
  /**
   * What the page script and the CLI reach by the id alone, from the folder's view modules (`view.ts`,
   * `picture.ts`; builders/render/dataset-view.ts): declared here too, so that a dataset without them fails the
   * type-check, and test/dataset-modules.test.ts checks they are the very modules of `builders/datasets/<id>/`.
   */
  view: HomeView<P>;
  picture: TerminalPicture<P>;
  /** The payload shortened for reading on the developer page, with a note saying how. */
  example(payload: P): { json: string; note: string };
  prose(config: Config): DatasetProse;
}

/** A real snapshot shortened for reading: its long array keeps its first entries and says how many there are. */
export function shortened<P extends object>(payload: P, member: keyof P & string): { json: string; note: string } {
  const shown = 3;
  const list = payload[member] as unknown[];
  return {
    json: JSON.stringify({ ...payload, [member]: list.slice(0, shown) }, null, 2),
    note: `A real snapshot from this build, with \`${member}\` shortened to its first ${shown} of ${list.length} entries.`,
  };
}
