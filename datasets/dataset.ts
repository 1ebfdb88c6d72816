// What a dataset module declares (docs/architecture.md#add-a-dataset): its published resource (paths,
// operationIds, schema, cache policy, problem texts, tool and card names), where its data come from (a
// source of upstreams/sources.ts, or another dataset it is derived from), when a previous snapshot may
// stand in for it, and how the site shows it: its card, its home-page section, its example on the
// developer page and its sentences in the documents. Every program iterates the
// registry (registry.ts) and none asks which dataset it holds.
import type { Config } from '../lib/config.ts';
import type { DataResource, DataResourceId, ServiceTables } from '../contract/service.ts';
import type { Reuse } from '../domain/reuse.ts';
import type { SourceName } from '../upstreams/sources.ts';
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
 * A dataset's own upstream, declared in its folder (datasets/<id>/source.ts): how every program connects
 * to it, once, from its configuration, and how long the gateway keeps an answer.
 */
export interface DatasetUpstream<P> {
  /** The fetch of one payload of this instant (the build's and the gateway's alike). */
  connect(config: Config, http: HttpOptions): (nowMs: number) => Promise<P>;
  /** How long the gateway keeps an answer before it asks the upstream again (its cache policy's period). */
  keepMs: number;
}

/**
 * Where a dataset's data come from: one upstream source named by its provider, its own upstream, or the
 * payload of another dataset of the same instant.
 */
export type DataOrigin<P> =
  | { source: SourceName }
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
 * A figure of the home page's preview (`data-preview` = the dataset's id), refreshed by the page script
 * from `resource.v1.path` with the dataset's view (`view.ts`): its body is the view's.
 */
export interface HomeSection<P> {
  /** Its heading, HTML. */
  title(ctx: SiteContext): string;
  /** What follows the body (its source, a disclaimer), HTML. */
  after(ctx: SiteContext, payload: P | null): string;
  /** More attributes of the figure, each with its leading space (the market's live feed), or none. */
  attributes?(ctx: SiteContext, payload: P | null): string;
}

export interface Dataset<P = unknown> {
  resource: DataResource;
  origin: DataOrigin<P>;
  /**
   * Whether a previous snapshot may be published again when the source gives nothing now (domain/reuse.ts),
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
   * More cards drawn from the payload, each at `cards/<name>.svg` and `<name>-dark.svg` (the projects' one
   * per repository); `name` lies under `cards/<resource.cardFolder>/`. Absent: the one card only.
   */
  moreCards?(
    payload: P,
  ): Array<{ name: string; draw(theme: ChartTheme, ctx: Pick<SiteContext, 'nowMs' | 'simulated'>): string }>;
  home: HomeSection<P>;
  /**
   * What the page script and the CLI reach by the id alone, from the folder's view modules (`view.ts`,
   * `picture.ts`; render/dataset-view.ts): declared here too, so that a dataset without them fails the
   * type-check, and test/dataset-modules.test.ts checks they are the very modules of `datasets/<id>/`.
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
