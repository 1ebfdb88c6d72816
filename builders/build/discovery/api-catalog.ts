// /.well-known/api-catalog: an RFC 9727 API catalog in RFC 9264 linkset JSON. RFC 9264 §4.2: the
// top-level object has `linkset` as its only member; each context object names its `anchor` and maps
// relation types to arrays of target objects with an `href`. RFC 9727 §4: the catalog MUST link its
// APIs with `item`; per-API metadata uses `service-desc`, `service-doc` and `service-meta` (RFC 8631).
import type { Config } from '../../lib/config.ts';
import { API_INDEX, API_INDEX_LINK, DISCOVERY, type ServiceTables } from '../../contract/service.ts';
import { absoluteUrl } from '../../contract/pages.ts';

/**
 * The type the contract is served with, by the gateway and by every static host (`.json`): a link's
 * `type` is a hint of what the target returns (RFC 8288 §3.4.1), so it names the same type.
 */
export const OPENAPI_MEDIA_TYPE = DISCOVERY.openapi.contentType;

interface Target {
  href: string;
  type?: string;
  title?: string;
}

/** The catalog of `service`'s endpoints: a build's lists only what it publishes (builders/build/artifact.ts, publishedService). */
export function apiCatalog(
  config: Config,
  service: ServiceTables,
): { linkset: Array<Record<string, string | Target[]>> } {
  const url = (path: string) => absoluteUrl(config.siteUrl, path);
  const endpoints = service.resources.flatMap((r) => [
    { path: r.v1.path, type: r.contentType, title: `${r.title} (v1)` },
    { path: r.alias.path, type: r.contentType, title: `${r.title} (unversioned alias of ${r.v1.path})` },
  ]);
  const metadata = {
    'service-desc': [{ href: url(DISCOVERY.openapi.path), type: OPENAPI_MEDIA_TYPE, title: 'OpenAPI 3.1 contract' }],
    'service-doc': [
      { href: url(DISCOVERY.developers.path), type: 'text/html', title: 'Developer documentation' },
      {
        href: url(DISCOVERY.developersMarkdown.path),
        type: 'text/markdown',
        title: 'Developer documentation (Markdown)',
      },
    ],
    'service-meta': [{ href: url(API_INDEX_LINK), type: API_INDEX.contentType, title: 'API index' }],
    // RFC 8631 section 6.1.4: "status" identifies a resource that represents the API's status.
    status: [{ href: url(DISCOVERY.status.path), type: DISCOVERY.status.contentType, title: 'Build and data status' }],
  };
  return {
    linkset: [
      {
        anchor: url(DISCOVERY.apiCatalog.path),
        item: endpoints.map((e) => ({ href: url(e.path), type: e.type, title: e.title })),
      },
      // The API as a whole (its index), then each endpoint with the same descriptions.
      { anchor: url(API_INDEX_LINK), ...metadata },
      ...endpoints.map((e) => ({ anchor: url(e.path), ...metadata })),
    ],
  };
}
