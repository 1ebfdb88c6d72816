// The gateway's static table in a Worker: made by the core's own staticTable from the bundle's list of
// files (gateway/worker/deployment.ts), so every header, ETag and 304 is the Node gateway's. Cloudflare serves
// these files itself before the Worker runs (docs/deploying.md#what-runs-where); the table answers what still
// reaches the Worker: the 404 page of an unknown path, and a file asked for in a form the asset router does
// not serve. No body is hashed or compressed here (a Worker has 10 ms of CPU per request on the free plan):
// tags come from the bundle. A body starts as a buffer of its length and is filled from the static assets
// the first time an answer carries it (fill), then kept for the isolate's life. Two requests that find it
// unfilled each read it: workerd ties a promise to the request that made it, so one request awaiting
// another's read would fail once that request ends (the same rule as the upstream fetches,
// docs/deploying.md#cloudflare-workers); the second write puts the same bytes in place.
import type { ServiceTables } from '../../builders/contract/service.ts';
import type { BodyCodec } from '../core/http/representation.ts';
import { staticTable, type SiteFile, type StaticTable } from '../core/http/static-table.ts';
import type { BakedFile } from './baked.ts';

/** The static assets binding (`assets.binding` in gateway/worker/wrangler.jsonc). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

export interface WorkerStatic {
  table: StaticTable;
  /** Fills `body` from the static assets when it is a body not read yet; any other body is left as it is. */
  fill(body: Uint8Array | undefined): Promise<void> | undefined;
}

export function workerStatic(
  files: readonly BakedFile[],
  service: ServiceTables,
  assets: AssetsBinding,
  fallback: BodyCodec,
  /** The live market feed the pages subscribe to (builders/lib/config.ts liveFeedUrl): their policy names it. */
  feedUrl: string | null,
): WorkerStatic {
  /** Bodies still to read: the buffer the table holds → the asset that fills it. */
  const pending = new Map<Uint8Array, string>();
  const tags = new Map<Uint8Array, string>();
  const site: SiteFile[] = files.map((f) => {
    const body = new Uint8Array(f.body.length);
    pending.set(body, f.body.asset);
    tags.set(body, f.tag);
    // No copies: the Worker answers every client with the identity bytes (gateway/worker/worker.ts).
    return { file: f.file, body, copies: { br: undefined, gzip: undefined } };
  });
  const codec: BodyCodec = { tag: (body) => tags.get(body) ?? fallback.tag(body) };
  const table = staticTable(site, service, codec, feedUrl);

  const get = (path: string) => assets.fetch(new Request(new URL(path, 'https://assets.invalid')));
  const read = async (buffer: Uint8Array, asset: string) => {
    let response = await get(encodeURI(asset));
    // The asset router serves pages at their clean URLs (`html_handling`): /404.html answers 307 to /404.
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      response = await get(location);
    }
    const got = new Uint8Array(await response.arrayBuffer());
    // The assets are not the files the bundle was made from: its table would name other bytes than it serves.
    if (!response.ok || got.length !== buffer.length)
      throw new Error(`static asset ${asset} is not the file the bundle was made from; run npm run build:edge again`);
    buffer.set(got);
    pending.delete(buffer);
  };
  return {
    table,
    fill(body) {
      if (body === undefined) return undefined;
      const asset = pending.get(body);
      return asset === undefined ? undefined : read(body, asset);
    },
  };
}
