// The site under test: `npm run build`'s program run against the fake upstreams into a temporary
// folder, timed, measured, and the paths each server needs to answer with the same file.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { contentTypeFor } from '../../builders/contract/content-types.ts';
import { API_INDEX, dataResource } from '../../builders/contract/service.ts';
import { DEFAULT_SERVICE } from '../../builders/datasets/registry.ts';
import { ROOT } from './processes.ts';

export interface BuildRun {
  code: number | null;
  wallMs: number;
  stderr: string;
}

/** Runs .build/build.mjs --out `out` with `env` (the whole environment of the child) and times it. */
export function runBuild(out: string, env: Record<string, string>): Promise<BuildRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [join(ROOT, '.build', 'build.mjs'), '--out', out], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, wallMs: performance.now() - started, stderr: stderr.trim() });
    });
  });
}

/** Total bytes and number of files under `dir`. */
export async function folderSize(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath ?? entry.path, entry.name))).size;
    files++;
  }
  return { bytes, files };
}

export async function fileSize(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => Number.NaN,
  );
}

/**
 * Makes every folder of the tree world-readable: mkdtemp creates 0700 folders, and nginx's worker
 * drops its privileges before it reads a file.
 */
export async function openForReading(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath ?? entry.path, entry.name);
    await chmod(path, entry.isDirectory() ? 0o755 : 0o644);
  }
}

/** The same file seen through each server: the gateway's clean path and the peers' file path. */
export interface RouteUnderTest {
  id: 'snapshot' | 'api-index' | 'html';
  label: string;
  /** The file in dist/ every server answers with. */
  file: string;
  gatewayPath: string;
  peerPath: string;
  /** What the bare node:http peer sends as Content-Type. */
  contentType: string;
}

/**
 * The three routes the peers are compared on. The static page is the first HTML page the build wrote
 * (the site generator may not exist yet): the home page, else the developer page, else any page.
 */
export async function routesUnderTest(dist: string): Promise<RouteUnderTest[]> {
  const routes: RouteUnderTest[] = [
    {
      id: 'snapshot',
      label: 'contribution snapshot',
      file: 'api/v1/github-contributions',
      gatewayPath: '/api/v1/github-contributions',
      peerPath: '/api/v1/github-contributions',
      contentType: dataResource(DEFAULT_SERVICE, 'contributions').contentType,
    },
    // serve would list the api/ folder at /api, so the peers get the file's own path.
    {
      id: 'api-index',
      label: '/api index',
      file: API_INDEX.file,
      gatewayPath: API_INDEX.path,
      peerPath: `/${API_INDEX.file}`,
      contentType: API_INDEX.contentType,
    },
  ];
  const html = await pickHtmlPage(dist);
  // The peers get the page's clean path too: serve redirects /page.html to /page (cleanUrls).
  if (html)
    routes.push({
      id: 'html',
      label: `static page ${html.path}`,
      file: html.file,
      gatewayPath: html.path,
      peerPath: html.path,
      contentType: contentTypeFor(html.file),
    });
  // A generator that has not landed yet leaves its file out: that route is not measured.
  return routes.filter((r) => existsSync(join(dist, r.file)));
}

async function pickHtmlPage(dist: string): Promise<{ file: string; path: string } | undefined> {
  if (existsSync(join(dist, 'index.html'))) return { file: 'index.html', path: '/' };
  if (existsSync(join(dist, 'developers.html'))) return { file: 'developers.html', path: '/developers' };
  const pages = (await readdir(dist)).filter((f) => f.endsWith('.html') && f !== '404.html').sort();
  if (pages[0]) return { file: pages[0], path: `/${pages[0].replace(/\.html$/, '')}` };
  if (existsSync(join(dist, '404.html'))) return { file: '404.html', path: '/404' };
  return undefined;
}
