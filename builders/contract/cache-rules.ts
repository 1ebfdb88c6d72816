// The Cache-Control of every published file (docs/api.md#caching), one rule for every host: the gateway's
// static table (gateway/core/http/static-table.ts) and the files written for static hosts (serve.json,
// _headers: builders/build/static-host.ts) both read it, so `serve dist`, Netlify, Cloudflare and the gateway
// send one value for one file.
import { API_INDEX, CACHE_CONTROL, folderCardResource, type ServiceTables } from './service.ts';

/** What a file that is neither the index, a card nor a snapshot is sent with (fileCacheControl). */
export const DEFAULT_FILE_CACHE_CONTROL = CACHE_CONTROL.static;

/**
 * What a file of dist/ is sent with: the API index its hour; a card the cache rule of the data it
 * pictures; a snapshot its static-host rule (the gateway answers the data paths live, by
 * CACHE_CONTROL.data); every other file (pages, twins, stylesheet and scripts, share pictures, icons,
 * manifest, feeds, /resume.json) revalidates with its ETag, so a redeploy shows at once. No file name
 * carries a hash of its content (the pages link `/assets/site.css` itself), so none may be immutable.
 */
export function fileCacheControl(service: ServiceTables, file: string): string {
  if (file === API_INDEX.file) return CACHE_CONTROL.apiIndex;
  const snapshot = service.resources.find((r) => r.snapshotFiles.includes(file));
  if (snapshot !== undefined) return CACHE_CONTROL.staticSnapshot(snapshot.cache);
  const card = service.cards.find((c) => c.file === file) ?? folderCardResource(service, file);
  if (card !== undefined) return CACHE_CONTROL.card(card.cache);
  return DEFAULT_FILE_CACHE_CONTROL;
}
