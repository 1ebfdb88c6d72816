// The build's compressed copies: `x.br` and `x.gz` beside every compressible file it writes, so that
// nginx (`gzip_static`, `brotli_static`), other static hosts and the gateway serve compressed bytes
// without compressing anything per request or at start. Host configuration files are not served, so
// they get none; the extension-less data snapshots are compressed as the JSON they are.
import {
  COMPRESSED_SUFFIX,
  compressedCopiesAsync,
  contentKey,
  ContentMemo,
  decodesTo,
  MIN_COMPRESSED_BYTES,
  type CompressedCoding,
  type CompressedCopies,
} from '../lib/compressed-copies.ts';
import type { ContentStore } from '../lib/cache/content-store.ts';
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
 * not compressed again. Bounded by the bytes of the bodies it stands for: past the bound it starts over, so
 * that one large build (3,000 writings: 40 MB of text) does not keep every copy it made until it ends.
 */
const SEEN = new ContentMemo<Promise<CompressedCopies>>(8 * 1024 * 1024);

/**
 * The copies of `body`: made before in this process, kept by an earlier build in `store` (each copy taken
 * back only if it decodes to the body), or compressed now and kept there.
 */
async function copiesOf(body: Uint8Array, store: ContentStore | undefined): Promise<CompressedCopies> {
  const key = contentKey(body);
  // The kept files' names: the body's SHA-256 (the memo's key) in hex, and the copy's suffix.
  const hex = Buffer.from(key, 'base64').toString('hex');
  const names = (coding: CompressedCoding) => `${hex}${COMPRESSED_SUFFIX[coding]}`;
  let made = 'earlier' as 'earlier' | 'kept' | 'now';
  const copies = await SEEN.get(
    key,
    () => {
      const kept = keptCopies(body, store, names);
      made = kept === undefined ? 'now' : 'kept';
      const copies = kept === undefined ? compressedCopiesAsync(body) : Promise.resolve(kept);
      copies.catch(() => SEEN.delete(key));
      return copies;
    },
    () => body.length,
  );
  if (store !== undefined && made !== 'kept')
    for (const coding of CODINGS) {
      const copy = copies[coding];
      if (copy === undefined) continue;
      if (made === 'now') store.put(names(coding), copy);
      else store.used(names(coding), copy);
    }
  return copies;
}

/** Both copies of `body` as an earlier build kept them, when both are kept and decode to it. */
function keptCopies(
  body: Uint8Array,
  store: ContentStore | undefined,
  names: (coding: CompressedCoding) => string,
): CompressedCopies | undefined {
  if (store === undefined || body.length < MIN_COMPRESSED_BYTES) return undefined;
  const kept = (coding: CompressedCoding) => store.get(names(coding), (copy) => decodesTo(coding, copy, body));
  const br = kept('br');
  const gzip = br && kept('gzip');
  if (br === undefined || gzip === undefined) return undefined;
  return {
    br: Buffer.from(br.buffer, br.byteOffset, br.length),
    gzip: Buffer.from(gzip.buffer, gzip.byteOffset, gzip.length),
  };
}

/**
 * Bodies past this size are compressed one at a time. Each compression holds its encoder's memory, a few
 * megabytes for a small page and tens of megabytes for a large file; a site of 3,000 writings has six
 * files of 0.3 to 8 MB (its feeds, llms-full.txt, the sitemap), which the build reached together, and
 * compressing them at once was the build's peak memory.
 */
const LARGE_BYTES = 256 * 1024;
/** The large compression in progress, which the next one waits for. */
let largeTurn: Promise<unknown> = Promise.resolve();

/** The copies of `artifact` worth keeping (smaller than the file), as artifacts of their own; none if it gets none. */
export async function copiesOfArtifact({ file, body }: Artifact, store?: ContentStore): Promise<InMemoryArtifact[]> {
  if (!getsCopies(file)) return [];
  // Only pictures are staged (builders/build/pages/sharing.ts), and a PNG gets no copies.
  if (isStaged(body)) throw new Error(`${file}: a staged file cannot be compressed`);
  const compress = () => copiesOf(typeof body === 'string' ? Buffer.from(body) : body, store);
  let compressed: CompressedCopies;
  if ((typeof body === 'string' ? body.length : body.byteLength) < LARGE_BYTES) compressed = await compress();
  else {
    const turn = largeTurn.then(compress);
    largeTurn = turn.catch(() => undefined);
    compressed = await turn;
  }
  return CODINGS.flatMap((coding) => {
    const copy = compressed[coding];
    return copy === undefined ? [] : [{ file: file + COMPRESSED_SUFFIX[coding], body: copy }];
  });
}

/**
 * Files compressed at once: libuv's thread pool runs 4 zlib jobs at a time (UV_THREADPOOL_SIZE), and each
 * job started holds its encoder's memory until it ends, running or queued (a brotli encoder at quality 10
 * takes megabytes). Starting every file's at once made the build's memory grow with the content: 2,000
 * writings took 1.29 GB. A few more than the pool keeps it busy.
 */
export const COMPRESSING_AT_ONCE = 8;

/** The copies of `artifacts` worth keeping, in their order (the build writes its own as it goes: build.ts). */
export async function compressedArtifacts(artifacts: readonly Artifact[]): Promise<InMemoryArtifact[]> {
  const copies: InMemoryArtifact[][] = new Array(artifacts.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(COMPRESSING_AT_ONCE, artifacts.length) }, async () => {
      while (next < artifacts.length) {
        const i = next++;
        copies[i] = await copiesOfArtifact(artifacts[i]!);
      }
    }),
  );
  return copies.flat();
}

/** The copies the build may have written beside `file`: removed with it when it is not written again. */
export function copyFiles(file: string): string[] {
  return CODINGS.map((coding) => file + COMPRESSED_SUFFIX[coding]);
}
