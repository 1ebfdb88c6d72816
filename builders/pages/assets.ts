// The browser assets under site/: the stylesheet, after the owner's theme (theme-css.ts), and the home page's script, bundled
// with esbuild from site/scripts/preview.ts so that the browser redraws the charts with the very
// functions the build used (builders/pages/charts). esbuild is already how this project compiles.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Artifact } from '../artifact.ts';
import { SITE_DIR } from '../content/site-content.ts';
import { ASSETS } from './layout.ts';
import { themeCss } from './theme-css.ts';
import type { Look } from '../../render/themes.ts';

/** One bundle per site folder in a process (the tests build the site dozens of times). */
const SCRIPTS = new Map<string, Promise<string>>();

export function bundlePreviewScript(dir: URL = SITE_DIR): Promise<string> {
  let script = SCRIPTS.get(dir.href);
  if (script === undefined) {
    script = bundleScript(dir);
    SCRIPTS.set(dir.href, script);
    script.catch(() => SCRIPTS.delete(dir.href));
  }
  return script;
}

async function bundleScript(dir: URL): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL('scripts/preview.ts', dir))],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output for site/scripts/preview.ts');
  return file.text;
}

/** The stylesheet (the owner's theme, then site/styles/site.css) and the page script. */
export async function renderAssets(look: Look, dir: URL = SITE_DIR): Promise<Artifact[]> {
  return [
    { file: ASSETS.css.slice(1), body: themeCss(look) + readFileSync(new URL('styles/site.css', dir), 'utf8') },
    { file: ASSETS.previewScript.slice(1), body: await bundlePreviewScript(dir) },
  ];
}
