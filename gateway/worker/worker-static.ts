// The gateway's static table in a Worker: made by the core's own staticTable from the bundle's list of
// files (gateway/worker/deployment.ts), so every header, ETag and 304 is the Node gateway's. No body is hashed or
// compressed here (a Worker has 10 ms of CPU per request on the free plan): tags and copies come from the
// bundle. A body that is a file of dist/ starts as a buffer of its length and is filled from the static
// assets the first time an answer carries it (fill), then kept for the isolate's life.
import type { ServiceTables } from '../../contract/service.ts';
import type { BodyCodec, CompressedCopies } from '../core/http/representation.ts';
import { staticTable, type SiteFile, type StaticTable } from '../core/http/static-table.ts';
import type { BakedBody, BakedFile } from './baked.ts';

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
  /** The live market feed the pages subscribe to (lib/config.ts liveFeedUrl): their policy names it. */
  feedUrl: string | null,
): WorkerStatic {
  /** Bodies still to read: the buffer the table holds → the asset that fills it. */
  const pending = new Map<Uint8Array, { asset: string; filling?: Promise<void> }>();
  const tags = new Map<Uint8Array, string>();
  const bytes = (baked: BakedBody): Uint8Array => {
    if ('base64' in baked) return Uint8Array.from(atob(baked.base64), (c) => c.charCodeAt(0));
    const buffer = new Uint8Array(baked.length);
    pending.set(buffer, { asset: baked.asset });
    return buffer;
  };
  const site: SiteFile[] = files.map((f) => {
    const body = bytes(f.body);
    tags.set(body, f.tag);
    const copies: CompressedCopies = { br: f.br && bytes(f.br), gzip: f.gzip && bytes(f.gzip) };
    return { file: f.file, body, copies };
  });
  const codec: BodyCodec = {
    tag: (body) => tags.get(body) ?? fallback.tag(body),
    // Every file comes with its copies (none where the Node gateway made none): nothing to compress.
  };
  const table = staticTable(site, service, codec, feedUrl);

  const read = async (buffer: Uint8Array, asset: string) => {
    const response = await assets.fetch(new Request(new URL(encodeURI(asset), 'https://assets.invalid')));
    const got = new Uint8Array(await response.arrayBuffer());
    // dist/ changed after the bundle was made: its table would name other bytes than it serves.
    if (!response.ok || got.length !== buffer.length)
      throw new Error(`static asset ${asset} is not the file the bundle was made from; run npm run build:edge again`);
    buffer.set(got);
    pending.delete(buffer);
  };
  return {
    table,
    fill(body) {
      if (body === undefined) return undefined;
      const entry = pending.get(body);
      if (entry === undefined) return undefined;
      entry.filling ??= read(body, entry.asset).finally(() => (entry.filling = undefined));
      return entry.filling;
    },
  };
}
