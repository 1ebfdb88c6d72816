// The build's compressed copies: `x.br` and `x.gz` beside every compressible file it writes, so that
// nginx (`gzip_static`, `brotli_static`), other static hosts and the gateway serve compressed bytes
// without compressing anything per request or at start. Host configuration files are not served, so
// they get none; the extension-less data snapshots are compressed as the JSON they are.
import { COMPRESSED_SUFFIX, compressedCopiesAsync, type CompressedCoding } from '../lib/compressed-copies.ts';
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

/** The copies of `artifacts` worth keeping (smaller than the file), as artifacts of their own. */
export async function compressedArtifacts(artifacts: readonly Artifact[]): Promise<Artifact[]> {
  const compressible = artifacts.filter(({ file }) => getsCopies(file));
  const compressed = await Promise.all(
    compressible.map(({ body }) => compressedCopiesAsync(typeof body === 'string' ? Buffer.from(body) : body)),
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
