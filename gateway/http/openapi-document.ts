// The gateway's /openapi.json. dist/openapi.json promises only what a static host does; the gateway
// serves the same paths live and adds the quota (429, RateLimit headers) and a Cache-Control of its own,
// so it answers with the gateway's document instead: generated at start by the same function the build
// uses (contract/openapi.ts), from the same configuration, with the build's snapshots as its examples.
import type { Config } from '../../lib/config.ts';
import { openApiDocument, type Snapshots } from '../../contract/openapi.ts';
import { dataResource, DISCOVERY, type DataResourceId } from '../../contract/service.ts';
import type { JsonSchema } from '../../contract/schemas.ts';

/**
 * The build's snapshot of one resource, read from dist/ (it validated it before writing it), or null
 * when the build published none: then the document has no example, as the build's own would.
 */
function snapshot(files: ReadonlyMap<string, Buffer>, id: DataResourceId): unknown {
  const body = files.get(dataResource(id).snapshotFiles[0]!);
  if (body === undefined) return null;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return null; // a file changed after the build: no example rather than a broken one
  }
}

/** The gateway's document as the file the gateway serves at DISCOVERY.openapi.path, serialized as the build writes JSON. */
export function gatewayOpenApiFile(
  config: Config,
  schemas: Map<string, JsonSchema>,
  files: ReadonlyMap<string, Buffer>,
): [file: string, body: Buffer] {
  const snapshots = {
    market: snapshot(files, 'market'),
    contributions: snapshot(files, 'contributions'),
  } as Snapshots;
  const document = openApiDocument(config, schemas, snapshots, 'gateway');
  return [DISCOVERY.openapi.file, Buffer.from(`${JSON.stringify(document, null, 2)}\n`)];
}
