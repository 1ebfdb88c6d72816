// The form of what the Worker's bundle carries of one deployment (gateway/worker/deployment.ts writes it on Node,
// gateway/worker/worker.ts reads it): plain JSON, so that the bundle needs nothing at run time to read it.
import type { SiteFile } from '../../builders/lib/config.ts';
import type { JsonSchema } from '../../builders/contract/schemas.ts';

/** Where one body's bytes are: the Worker's static asset of that path, and its length. */
export interface BakedBody {
  length: number;
  asset: string;
}

/** One file of the gateway's static table: its body and its ETag's tag (no compressed copy: Cloudflare compresses). */
export interface BakedFile {
  /** The dist/-relative path. */
  file: string;
  body: BakedBody;
  /** The tag of its strong ETag, as the Node gateway computes it (SHA-256, base64url). */
  tag: string;
}

export interface Baked {
  /**
   * The configuration variables as the bundle was made with them, the datasets' own included (secrets and
   * Node-only ones left out).
   */
  env: Record<string, string>;
  /** The secrets the Worker reads from its bindings: GITHUB_TOKEN and the datasets' own. */
  secrets: string[];
  site: SiteFile;
  /** The schemas as the deployment specialises them (MARKET_PRODUCT, CALENDAR_TIME_ZONE). */
  schemas: JsonSchema[];
  files: BakedFile[];
}
