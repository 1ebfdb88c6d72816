// The gateway's /openapi.json. dist/openapi.json promises only what a static host does; the gateway
// serves the same paths live and adds the quota (429, RateLimit headers) and a Cache-Control of its own,
// so it answers with the gateway's document instead: generated at start by the same function the build
// uses (builders/contract/openapi.ts), from the same configuration, with the build's snapshots as its examples.
import { openApiDocument } from '../../builders/contract/openapi.ts';
import { DISCOVERY, type DataResource } from '../../builders/contract/service.ts';
import { describedDatasets, type Deployment } from '../../builders/datasets/registry.ts';

/**
 * The build's snapshot of one resource, read from dist/ (it validated it before writing it), or null
 * when the build published none: then the document has no example, as the build's own would.
 */
function snapshot(files: ReadonlyMap<string, Uint8Array>, resource: DataResource): unknown {
  const body = files.get(resource.snapshotFiles[0]!);
  if (body === undefined) return null;
  try {
    return JSON.parse(new TextDecoder().decode(body)) as unknown;
  } catch {
    return null; // a file changed after the build: no example rather than a broken one
  }
}

/** The gateway's document as the file the gateway serves at DISCOVERY.openapi.path, serialized as the build writes JSON. */
export function gatewayOpenApiFile(
  deployment: Pick<Deployment, 'config' | 'datasets' | 'service' | 'schemas'>,
  files: ReadonlyMap<string, Uint8Array>,
): [file: string, body: Buffer] {
  const { config, service, schemas } = deployment;
  const snapshots = new Map(service.resources.map((r) => [r.id, snapshot(files, r)]));
  const document = openApiDocument(config, schemas, describedDatasets(deployment, snapshots), 'gateway');
  return [DISCOVERY.openapi.file, Buffer.from(`${JSON.stringify(document, null, 2)}\n`)];
}
