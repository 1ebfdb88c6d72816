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
import type { Artifact } from './artifact.ts';

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

/** The copies of `artifacts` worth keeping (smaller than the file), as artifacts of their own. */
export async function compressedArtifacts(artifacts: readonly Artifact[]): Promise<Artifact[]> {
  const compressible = artifacts.filter(({ file }) => getsCopies(file));
  const compressed = await Promise.all(
    compressible.map(({ body }) => copiesOf(typeof body === 'string' ? Buffer.from(body) : body)),
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
