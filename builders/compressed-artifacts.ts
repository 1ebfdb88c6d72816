// The build's compressed copies: `x.br` and `x.gz` beside every compressible file it writes, so that
// nginx (`gzip_static`, `brotli_static`), other static hosts and the gateway serve compressed bytes
// without compressing anything per request or at start. Host configuration files are not served, so
// they get none; the extension-less data snapshots are compressed as the JSON they are.
import { createHash } from 'node:crypto';
import {
  COMPRESSED_SUFFIX,
  compressedCopiesAsync,
  type CompressedCoding,
  type CompressedCopies,
} from '../lib/compressed-copies.ts';
import { contentTypeFor, isCompressible } from '../contract/content-types.ts';
import { isSnapshotFile } from '../contract/service.ts';
import { isStaged, type Artifact, type InMemoryArtifact } from './artifact.ts';

const HOST_CONFIG_FILES = new Set(['serve.json', '_headers', '_redirects', '.nojekyll']);
const CODINGS: readonly CompressedCoding[] = ['br', 'gzip'];

/** Whether the build compresses `file` (and so owns the `.br`/`.gz` beside it). */
export function getsCopies(file: string): boolean {
  return (
    !HOST_CONFIG_FILES.has(file) && isCompressible(isSnapshotFile(file) ? 'application/json' : contentTypeFor(file))
  );
}

/**
 * The copies of bodies compressed before in this process, by content: a file the same as in an earlier
 * build (the tests run dozens of builds; the pages, the CLI and the assets rarely change between them) is
 * not compressed again. Bounded: past the bound it starts over.
 */
const SEEN = new Map<string, Promise<CompressedCopies>>();
const SEEN_BOUND = 4096;

function copiesOf(body: Uint8Array): Promise<CompressedCopies> {
  const key = createHash('sha256').update(body).digest('base64');
  let copies = SEEN.get(key);
  if (copies === undefined) {
    if (SEEN.size >= SEEN_BOUND) SEEN.clear();
    copies = compressedCopiesAsync(body);
    SEEN.set(key, copies);
    copies.catch(() => SEEN.delete(key));
  }
  return copies;
}

/**
 * Files compressed at once: libuv's thread pool runs 4 zlib jobs at a time (UV_THREADPOOL_SIZE), and each
 * job started holds its encoder's memory until it ends, running or queued (a brotli encoder at quality 10
 * takes megabytes). Starting every file's at once made the build's memory grow with the content: 2,000
 * writings took 1.29 GB. A few more than the pool keeps it busy.
 */
export const COMPRESSING_AT_ONCE = 8;

/** The copies of `artifacts` worth keeping (smaller than the file), as artifacts of their own. */
export async function compressedArtifacts(artifacts: readonly Artifact[]): Promise<InMemoryArtifact[]> {
  const compressible = artifacts.filter(({ file }) => getsCopies(file));
  const compressed: CompressedCopies[] = new Array(compressible.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(COMPRESSING_AT_ONCE, compressible.length) }, async () => {
      while (next < compressible.length) {
        const i = next++;
        const { file, body } = compressible[i]!;
        // Only pictures are staged (builders/pages/sharing.ts), and a PNG gets no copies.
        if (isStaged(body)) throw new Error(`${file}: a staged file cannot be compressed`);
        compressed[i] = await copiesOf(typeof body === 'string' ? Buffer.from(body) : body);
      }
    }),
  );
  return compressible.flatMap(({ file }, i) =>
    CODINGS.flatMap((coding) => {
      const copy = compressed[i]![coding];
      return copy === undefined ? [] : [{ file: file + COMPRESSED_SUFFIX[coding], body: copy }];
    }),
  );
}

/** The copies the build may have written beside `file`: removed with it when it is not written again. */
export function copyFiles(file: string): string[] {
  return CODINGS.map((coding) => file + COMPRESSED_SUFFIX[coding]);
}
