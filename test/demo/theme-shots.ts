// `npm run screenshot -- --themes`'s pictures: the top of the home page in each of the six themes, light
// and dark, as Chromium draws it (test/tools/screenshot.mjs makes them 256-colour PNGs in docs/themes/). For
// each theme it runs `npm run build`'s program on the stock site/ with that theme in a copy of site.json
// and `avatar: github`, against the simulated upstreams of `npm run demo` (no network, no real person's
// data, and every page says so), serves the result on loopback and takes a phone-sized picture.
//   node .build/theme-shots.mjs <folder for the raw PNGs>
//
// The build program reads site/ beside its own folder (builders/lib/config.ts SITE_FILE_URL): each theme gets a
// folder that holds a copy of site/ and .build/build.mjs, and links to everything else of the repository.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { SITE_FILE_URL } from '../../builders/lib/config.ts';
import { SCHEMES, THEME_NAMES } from '../../builders/render/themes.ts';
import { cleanEnv, upstreamEnv } from '../fakes/env.ts';
import { startFakeUpstreams } from '../fakes/upstreams.ts';

/** The repository root, through site/site.json, which resolves from the bundle in .build/ too. */
const ROOT = fileURLToPath(new URL('../', SITE_FILE_URL));
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** A phone-sized window at 1x: the top of the page (picture, name, links, the first figure) in a small PNG. */
const VIEWPORT = { width: 480, height: 640 };

/** A repository whose site/ is a copy in `theme`, built by a copy of the build program, the rest linked. */
async function themedRoot(work: string, theme: string): Promise<string> {
  const root = join(work, theme);
  await mkdir(join(root, '.build'), { recursive: true });
  for (const entry of await readdir(ROOT))
    if (entry !== 'site' && entry !== '.build' && entry !== 'dist') await symlink(join(ROOT, entry), join(root, entry));
  await cp(join(ROOT, '.build/build.mjs'), join(root, '.build/build.mjs'));
  await cp(join(ROOT, 'site'), join(root, 'site'), { recursive: true });
  const siteJson = JSON.parse(await readFile(join(root, 'site/site.json'), 'utf8')) as Record<string, unknown>;
  await writeFile(join(root, 'site/site.json'), JSON.stringify({ ...siteJson, theme }));
  const profile = await readFile(join(root, 'site/profile.md'), 'utf8');
  if (!/^avatar:/m.test(profile))
    await writeFile(join(root, 'site/profile.md'), profile.replace(/^---\n/, '---\navatar: github\n'));
  return root;
}

function runBuild(root: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, '.build/build.mjs'), '--out', join(root, 'dist')], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

async function main(out: string | undefined): Promise<number> {
  if (out === undefined) {
    process.stderr.write('usage: node .build/theme-shots.mjs <folder>\n');
    return 2;
  }
  await mkdir(out, { recursive: true });
  const fake = await startFakeUpstreams();
  const work = await mkdtemp(join(tmpdir(), 'theme-shots-'));
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-gpu'] });
  const handler = createRequire(import.meta.url)('serve-handler') as (
    req: unknown,
    res: unknown,
    config: object,
  ) => Promise<void>;
  try {
    const env = cleanEnv({ ...upstreamEnv(fake.url), DEMO_SIMULATED: '1', MARKET_WS_URL: 'off' });
    for (const theme of THEME_NAMES) {
      const root = await themedRoot(work, theme);
      const code = await runBuild(root, env);
      if (code !== 0) throw new Error(`the ${theme} build exited ${code}`);
      const dist = join(root, 'dist');
      const config = { ...(JSON.parse(await readFile(join(dist, 'serve.json'), 'utf8')) as object), public: dist };
      const server = createServer((req, res) => void handler(req, res, config));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        for (const scheme of SCHEMES) {
          const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: scheme, reducedMotion: 'reduce' });
          await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
          await page.waitForSelector('img.avatar');
          await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.avatar')?.complete);
          const file = join(out, `${theme}-${scheme}.png`);
          await writeFile(file, await page.screenshot({ type: 'png', animations: 'disabled', caret: 'hide' }));
          process.stdout.write(`${file}\n`);
          await page.close();
        }
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    }
    return 0;
  } finally {
    await browser.close();
    await fake.close();
    await rm(work, { recursive: true, force: true });
  }
}

process.exitCode = await main(process.argv[2]);
