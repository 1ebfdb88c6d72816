// dist/ read once at start into the list of files the core's static table is made from
// (core/http/static-table.ts): every servable regular file with its bytes, and the compressed copies the
// build wrote beside it when they still match it. No file-system work happens after this.
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { COMPRESSED_SUFFIX, decodesTo, type CompressedCoding } from '../../builders/lib/compressed-copies.ts';
import type { CompressedCopies } from '../core/http/representation.ts';
import { servablePath, type SiteFile } from '../core/http/static-table.ts';

export class DistMissingError extends Error {
  override readonly name = 'DistMissingError';
}

const MAX_DEPTH = 32;
/**
 * Brotli quality of the bodies the gateway generates at start (its /openapi.json, about 90 kB): measured,
 * quality 5 takes 3 ms where the build's 10 takes 45 ms, for a copy about 15 % larger.
 */
const GENERATED_BROTLI_QUALITY = 5;

/** Files the gateway answers with a body of its own, made from what dist/ holds (its /openapi.json). */
export type GeneratedFiles = (files: ReadonlyMap<string, Uint8Array>) => Array<[file: string, body: Uint8Array]>;

/**
 * Reads every servable file under distDir; `generate` replaces or adds files (their compressed copies
 * from the build no longer match and are made at start). Throws DistMissingError when distDir is not a
 * folder.
 */
export function readSiteFiles(distDir: string, generate?: GeneratedFiles): SiteFile[] {
  let root: string;
  try {
    root = realpathSync(distDir);
    if (!statSync(root).isDirectory()) throw new Error('not a folder');
  } catch {
    throw new DistMissingError(`${distDir} does not exist or is not a folder; run npm run build first`);
  }
  const files = new Map<string, Uint8Array>();
  walk(root, root, '', 0, files);
  const generated = new Set<string>();
  for (const [file, body] of generate?.(files) ?? []) {
    files.set(file, body);
    generated.add(file);
  }
  const copies = builtCopies(files);
  const out: SiteFile[] = [];
  for (const [file, body] of files) {
    if (copies.isCopy(file)) continue;
    if (generated.has(file)) out.push({ file, body, brotliQuality: GENERATED_BROTLI_QUALITY });
    else out.push({ file, body, copies: copies.get(file) });
  }
  return out;
}

/**
 * The compressed copies the build wrote beside each file (`x.br`, `x.gz`), checked against the file: a
 * file with no copies, or with one that does not decode to its bytes (the folder was changed after the
 * build), is compressed at start instead. A copy is part of its file's answer, never a route of its own.
 */
function builtCopies(files: ReadonlyMap<string, Uint8Array>) {
  const found = new Map<string, CompressedCopies>();
  const copyOf = new Set<string>();
  for (const [file, body] of files) {
    const br = files.get(file + COMPRESSED_SUFFIX.br);
    const gzip = files.get(file + COMPRESSED_SUFFIX.gzip);
    if (br === undefined && gzip === undefined) continue;
    if (br !== undefined) copyOf.add(file + COMPRESSED_SUFFIX.br);
    if (gzip !== undefined) copyOf.add(file + COMPRESSED_SUFFIX.gzip);
    const usable = (coding: CompressedCoding, copy: Uint8Array | undefined) =>
      copy === undefined || (copy.length < body.length && decodesTo(coding, copy, body));
    if (usable('br', br) && usable('gzip', gzip)) found.set(file, { br, gzip });
  }
  return { get: (file: string) => found.get(file), isCopy: (file: string) => copyOf.has(file) };
}

/**
 * Collects regular files. A link to a file is followed only when its target is inside dist/ and is
 * itself servable; a link to a folder is not followed at all: the build writes none, and two folders
 * linking to each other would make the walk visit exponentially many paths.
 */
function walk(root: string, dir: string, prefix: string, depth: number, out: Map<string, Uint8Array>): void {
  if (depth > MAX_DEPTH) return;
  for (const dirent of readdirSync(dir, { withFileTypes: true })) {
    const file = `${prefix}${dirent.name}`;
    if (!servablePath(file)) continue;
    let full = join(dir, dirent.name);
    if (dirent.isSymbolicLink()) {
      try {
        full = realpathSync(full);
      } catch {
        continue; // dangling link
      }
      if (!full.startsWith(root + sep) || !servablePath(relative(root, full).split(sep).join('/'))) continue;
      if (statSync(full).isFile()) out.set(file, readFileSync(full));
      continue;
    }
    if (dirent.isDirectory()) walk(root, full, `${file}/`, depth + 1, out);
    else if (dirent.isFile()) out.set(file, readFileSync(full));
  }
}
