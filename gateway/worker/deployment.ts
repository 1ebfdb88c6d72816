// What the Worker's bundle carries of one deployment, made on Node by `npm run build:edge` (and
// `start:edge`): the configuration's values, the site file, the schemas, the validators compiled to code,
// and the table of dist/'s files. The table is made by the Node gateway's own code (readSiteFiles,
// staticTable, NODE_CODEC), so every header, ETag and compressed copy is the one `npm start` serves; the
// Worker keeps only lengths, tags and where each body is: a file of dist/ (a static asset, read on first
// use) or, for the few bodies the gateway makes itself (its /openapi.json), the bytes in the bundle.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES, liveFeedUrl, type Config } from '../../lib/config.ts';
import { COMPRESSED_SUFFIX } from '../../lib/compressed-copies.ts';
import { loadSchemas, standaloneValidators } from '../../contract/schemas.ts';
import { serviceTables } from '../../datasets/registry.ts';
import { readSiteFiles } from '../http/static-files.ts';
import { gatewayOpenApiFile } from '../http/openapi-document.ts';
import { NODE_CODEC } from '../http/node-codec.ts';
import { staticTable } from '../core/http/static-table.ts';
import type { BodyCodec, CompressedCopies } from '../core/http/representation.ts';
import type { Baked, BakedBody, BakedFile } from './baked.ts';

/** Variables the Worker never takes from the bundle: a secret, and what refuseNodeOnly refuses. */
const NOT_BAKED = new Set(['GITHUB_TOKEN', 'RATE_LIMIT_REDIS_URL', 'TRUST_PROXY', 'DIST_DIR', 'SOURCE_DATE_EPOCH']);

export interface Deployment {
  /** The bundle's `edge:deployment` module (Baked, as JSON) and `edge:validators` (ajv's standalone code). */
  deployment: string;
  validators: string;
}

export function deploymentModules(config: Config, env: Record<string, string | undefined>): Deployment {
  const service = serviceTables(config);
  const schemas = loadSchemas(service);
  const baked: Baked = {
    env: Object.fromEntries(
      CONFIG_VARIABLES.filter((name) => !NOT_BAKED.has(name) && env[name] !== undefined).map((name) => [
        name,
        env[name]!,
      ]),
    ),
    site: config.site,
    schemas: [...schemas.values()],
    files: siteFiles(config, service, schemas),
  };
  return { deployment: JSON.stringify(baked), validators: standaloneValidators(schemas) };
}

/** The files the gateway's static table serves, as the Worker rebuilds it (gateway/worker/worker-static.ts). */
function siteFiles(
  config: Config,
  service: ReturnType<typeof serviceTables>,
  schemas: ReturnType<typeof loadSchemas>,
): BakedFile[] {
  // The Node codec, recorded: each body's tag and the copies it made at start (generated bodies only).
  const tags = new Map<Uint8Array, string>();
  const made = new Map<Uint8Array, CompressedCopies>();
  const recording: BodyCodec = {
    tag(body) {
      const tag = NODE_CODEC.tag(body);
      tags.set(body, tag);
      return tag;
    },
    compress(body, options) {
      const copies = NODE_CODEC.compress!(body, options);
      made.set(body, copies);
      return copies;
    },
  };
  const files = readSiteFiles(config.distDir, (found) => [gatewayOpenApiFile(config, service, schemas, found)]);
  const table = staticTable(files, service, recording, liveFeedUrl(config));
  const served = new Set([...table.routes.values(), ...(table.notFound ? [table.notFound] : [])].map((e) => e.file));
  const onDisk = (file: string, bytes: Uint8Array): string | undefined => {
    try {
      return Buffer.from(readFileSync(join(config.distDir, file))).equals(bytes) ? `/${file}` : undefined;
    } catch {
      return undefined;
    }
  };
  const body = (file: string, bytes: Uint8Array): BakedBody => {
    const asset = onDisk(file, bytes);
    return asset === undefined
      ? { length: bytes.length, base64: Buffer.from(bytes).toString('base64') }
      : { length: bytes.length, asset };
  };
  return files
    .filter((f) => served.has(f.file))
    .map((f) => {
      const copies = f.copies ?? made.get(f.body);
      return {
        file: f.file,
        body: body(f.file, f.body),
        tag: tags.get(f.body)!,
        br: copies?.br && body(f.file + COMPRESSED_SUFFIX.br, copies.br),
        gzip: copies?.gzip && body(f.file + COMPRESSED_SUFFIX.gzip, copies.gzip),
      };
    });
}
