// The form of what the Worker's bundle carries of one deployment (gateway/worker/deployment.ts writes it on Node,
// gateway/worker/worker.ts reads it): plain JSON, so that the bundle needs nothing at run time to read it.
import type { SiteFile } from '../../lib/config.ts';
import type { JsonSchema } from '../../contract/schemas.ts';

/** Where one body's bytes are: a file of dist/ served as a static asset, or in the bundle itself. */
export type BakedBody = { length: number; asset: string } | { length: number; base64: string };

/** One file of the gateway's static table: its body, its ETag's tag and its compressed copies. */
export interface BakedFile {
  /** The dist/-relative path. */
  file: string;
  body: BakedBody;
  /** The tag of its strong ETag, as the Node gateway computes it (SHA-256, base64url). */
  tag: string;
  br: BakedBody | undefined;
  gzip: BakedBody | undefined;
}

export interface Baked {
  /** The configuration variables as the bundle was made with them (secrets and Node-only ones left out). */
  env: Record<string, string>;
  site: SiteFile;
  /** The schemas as the deployment specialises them (MARKET_PRODUCT, CALENDAR_TIME_ZONE). */
  schemas: JsonSchema[];
  files: BakedFile[];
}
