// `npm run screenshot`: the README's picture of the home page (docs/home.png), taken from `npm run demo`
// so that it needs no network and shows no real person's data. Starts the compiled demo on a free port,
// opens its home page in Debian's Chromium driven by playwright-core (the browser the tests use), waits
// until the page's script has drawn both datasets, saves a PNG of the page from its top to the end of the
// contribution calendar (as a 256-colour palette PNG, about 60 KiB), and stops the demo.
//   npm run screenshot [-- --out <file.png>]
//   npm run screenshot -- --writing static-plus-cron
//                                      docs/site.md's picture of a writing's page (docs/writing-page.png)
//   npm run screenshot -- --themes     docs/site.md's pictures of the six themes, light and dark
//                                      (docs/themes/<theme>-<scheme>.png, about 20 KiB each), drawn by
//                                      .build/theme-shots.mjs (test/demo/theme-shots.ts)
// The demo's data follow the real clock, so each run draws other (simulated) numbers; the page says
// they are simulated, and so does the picture.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { toPalettePng } from './png-palette.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEMO = `${ROOT}.build/demo.mjs`;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** A narrow laptop window at 1x: the page's full column with its margins, at the width a README shows. */
const VIEWPORT = { width: 880, height: 900 };
const START_TIMEOUT_MS = 120_000;

const fail = (line) => {
  process.stderr.write(`screenshot: ${line}\n`);
  process.exitCode = 1;
};

/** The six themes' pictures: raw from theme-shots.mjs into a temporary folder, then 256-colour into docs/themes/. */
async function themes() {
  const raw = await mkdtemp(join(tmpdir(), 'theme-shots-'));
  try {
    const child = spawn(process.execPath, [`${ROOT}.build/theme-shots.mjs`, raw], { cwd: ROOT, stdio: 'inherit' });
    const code = await new Promise((resolve) => child.once('close', resolve));
    if (code !== 0) return fail(`theme-shots.mjs exited ${code}`);
    await mkdir(`${ROOT}docs/themes`, { recursive: true });
    for (const name of (await readdir(raw)).filter((n) => n.endsWith('.png')).sort()) {
      const out = `${ROOT}docs/themes/${name}`;
      await writeFile(out, toPalettePng(await readFile(join(raw, name))));
      process.stdout.write(
        `screenshot: wrote docs/themes/${name} (${((await stat(out)).size / 1024).toFixed(1)} KiB)\n`,
      );
    }
  } finally {
    await rm(raw, { recursive: true, force: true });
  }
}

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      themes: { type: 'boolean', default: false },
      writing: { type: 'string' },
    },
  });
  if (values.themes) return themes();
  const out = values.out ?? (values.writing === undefined ? 'docs/home.png' : 'docs/writing-page.png');
  if (!existsSync(DEMO)) return fail(`${DEMO} is missing: run \`npm run screenshot\`, which compiles it first`);
  if (!existsSync(CHROMIUM_PATH))
    return fail(
      `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );

  // PORT=0: the demo picks a free port and builds its site for it; nothing else of the caller's
  // configuration matters here (the demo points every upstream at its simulated provider).
  const demo = spawn(process.execPath, [DEMO], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', RATE_LIMIT_QUOTA: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => demo.once('exit', (code, signal) => resolve(signal ?? code)));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the demo did not start in time')), START_TIMEOUT_MS);
      createInterface({ input: demo.stdout }).on('line', (line) => {
        const match = /^listening on (http:\/\/\S+)$/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      exited.then((how) => reject(new Error(`the demo exited (${how}) before listening; see its lines above`)));
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage({ viewport: VIEWPORT, colorScheme: 'light', reducedMotion: 'reduce' });
      if (values.writing !== undefined) {
        // A writing's page, whole, its lazy pictures loaded first.
        await page.goto(`${url}/writings/${encodeURIComponent(values.writing)}`);
        for (const image of await page.locator('main img').all()) await image.scrollIntoViewIfNeeded();
        await page.waitForFunction(() => [...document.images].every((i) => i.complete && i.naturalWidth > 0));
        await page.evaluate(() => window.scrollTo(0, 0));
        const shot = await page.screenshot({ type: 'png', fullPage: true, animations: 'disabled', caret: 'hide' });
        const temporary = `${out}.${process.pid}.tmp`;
        await writeFile(temporary, toPalettePng(shot));
        await rename(temporary, out);
        return;
      }
      await page.goto(`${url}/`);
      await page.waitForSelector('[data-preview="market"][data-refreshed="true"]');
      await page.waitForSelector('[data-preview="contributions"][data-refreshed="true"]');
      // From the top of the page down to the end of the second dataset: both charts in one picture.
      const calendar = await page.locator('[data-preview="contributions"]').boundingBox();
      if (calendar === null) throw new Error('the home page shows no contribution calendar');
      const clip = { x: 0, y: 0, width: VIEWPORT.width, height: Math.ceil(calendar.y + calendar.height + 24) };
      const shot = await page.screenshot({ type: 'png', fullPage: true, clip, animations: 'disabled', caret: 'hide' });
      // Written beside the target and renamed, so an interrupted run never leaves half a picture.
      const temporary = `${out}.${process.pid}.tmp`;
      await writeFile(temporary, toPalettePng(shot));
      await rename(temporary, out);
    } finally {
      await browser.close();
    }
    const { size } = await stat(out);
    process.stdout.write(`screenshot: wrote ${out} (${(size / 1024).toFixed(1)} KiB)\n`);
  } finally {
    if (demo.exitCode === null && demo.signalCode === null) demo.kill('SIGTERM');
    await exited;
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
