// Content types of dist/ files: the route table's own (DISCOVERY, API_INDEX) and the content documents'
// (CONTENT_DOCUMENTS: the feeds' types are not their extensions') first,
// then a small extension map. Unknown types are sent as application/octet-stream, never guessed.
import { CONTENT_DOCUMENTS, isTagJsonFeed } from './pages.ts';
import { API_INDEX, DISCOVERY } from './service.ts';

const BY_EXTENSION: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  css: 'text/css; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  jsonld: 'application/ld+json',
  webmanifest: 'application/manifest+json',
  xml: 'application/xml; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  pdf: 'application/pdf',
  wasm: 'application/wasm',
  ics: 'text/calendar; charset=utf-8',
};

/** dist/-relative file → content type, for the files whose type the route table declares. */
const BY_FILE: ReadonlyMap<string, string> = new Map<string, string>([
  ...Object.values(DISCOVERY).map((d) => [d.file, d.contentType] as [string, string]),
  [API_INDEX.file, API_INDEX.contentType],
  ...Object.values(CONTENT_DOCUMENTS).map((d) => [d.file, d.contentType] as [string, string]),
]);

export function contentTypeFor(file: string): string {
  const declared = BY_FILE.get(file);
  if (declared !== undefined) return declared;
  if (isTagJsonFeed(file)) return CONTENT_DOCUMENTS.feed.contentType;
  const name = file.slice(file.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return 'application/octet-stream';
  return BY_EXTENSION[name.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Files whose type a static host's own table names otherwise than BY_EXTENSION: Cloudflare's asset
 * router sends `.ico` as `image/vnd.microsoft.icon` and `serve` the manifest with a charset. The
 * static-host rules name these files' types (builders/build/static-host.ts), so every host sends the gateway's.
 */
export function hostTypeDiffers(file: string): boolean {
  return /\.(?:ico|webmanifest)$/.test(file);
}

/** Types worth compressing: text, JSON, XML, JavaScript and SVG. Images and fonts are compressed already. */
export function isCompressible(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]!.trim();
  return (
    type.startsWith('text/') ||
    type.endsWith('+json') ||
    type.endsWith('+xml') ||
    type === 'application/json' ||
    type === 'application/xml' ||
    type === 'application/javascript' ||
    type === 'application/wasm'
  );
}
