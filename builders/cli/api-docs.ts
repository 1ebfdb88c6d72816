// The JSON documents the `api` and `catalog` commands read: the /api index, the OpenAPI contract and the
// RFC 9727 API catalog (an RFC 9264 linkset). Pure; an unexpected shape is an UnexpectedBody.
import { UnexpectedBody } from './errors.ts';

export interface Operation {
  method: string;
  path: string;
  operationId: string | null;
  summary: string | null;
}

export interface ApiDescription {
  url: string;
  title: string | null;
  version: string | null;
  authentication: string | null;
  openapi: string | null;
  operations: Operation[];
  index: Record<string, unknown>;
}

export interface CatalogLink {
  rel: string;
  href: string;
  type: string | null;
  title: string | null;
}

export interface Catalog {
  url: string;
  linkset: Array<{ anchor: string; links: CatalogLink[] }>;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/** OpenAPI 3.x: every operation under `paths`, in document order. */
export function operationsFromOpenApi(doc: Json): Operation[] {
  if (!isObject(doc.paths)) throw new UnexpectedBody('the OpenAPI document has no "paths" object');
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: str(op.operationId),
        summary: str(op.summary) ?? str(op.description),
      });
    }
  }
  return operations;
}

/**
 * The /api index's own route list, used when the contract cannot be read. Only `authentication` is a
 * promised member of the index; the rest of its shape is the site's to choose, so any object naming an
 * /api/ path counts.
 */
export function operationsFromIndex(index: Json): Operation[] {
  const found = new Map<string, Operation>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!isObject(value)) return;
    const target = str(value.path) ?? str(value.href) ?? str(value.url);
    const path = target ? pathOf(target) : null;
    if (path && /^\/api\/./.test(path) && !found.has(path)) {
      found.set(path, {
        method: (str(value.method) ?? 'GET').toUpperCase(),
        path,
        operationId: str(value.operationId),
        summary: str(value.summary) ?? str(value.title) ?? str(value.description),
      });
    }
    Object.values(value).forEach(visit);
  };
  visit(index);
  return [...found.values()];
}

function pathOf(target: string): string | null {
  try {
    return new URL(target, 'http://x').pathname;
  } catch {
    return null;
  }
}

export function describeApi(url: string, index: Json, openapi: { url: string; doc: Json } | null): ApiDescription {
  const info = openapi && isObject(openapi.doc.info) ? openapi.doc.info : {};
  return {
    url,
    title: str(info.title) ?? str(index.title) ?? str(index.name),
    version: str(info.version) ?? str(index.version),
    authentication: authenticationOf(index.authentication),
    openapi: openapi ? openapi.url : null,
    operations: openapi ? operationsFromOpenApi(openapi.doc) : operationsFromIndex(index),
    index,
  };
}

/** The index states `authentication` as the string `none`; tolerate an object carrying it too. */
function authenticationOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isObject(value)) return str(value.type) ?? str(value.scheme) ?? str(value.value);
  return null;
}

/** RFC 9264 §4.2: `{"linkset": [{"anchor": ..., "<rel>": [{"href": ..., "type"?, "title"?}]}]}`. */
export function parseCatalog(url: string, doc: Json): Catalog {
  if (!Array.isArray(doc.linkset)) throw new UnexpectedBody('the API catalog has no "linkset" array');
  const linkset = doc.linkset.map((context, i) => {
    if (!isObject(context)) throw new UnexpectedBody(`linkset entry ${i} is not an object`);
    const anchor = str(context.anchor);
    if (!anchor) throw new UnexpectedBody(`linkset entry ${i} has no "anchor"`);
    const links: CatalogLink[] = [];
    for (const [rel, targets] of Object.entries(context)) {
      if (rel === 'anchor' || !Array.isArray(targets)) continue;
      for (const target of targets) {
        if (!isObject(target) || !str(target.href)) continue;
        links.push({ rel, href: target.href as string, type: str(target.type), title: str(target.title) });
      }
    }
    return { anchor, links };
  });
  return { url, linkset };
}
