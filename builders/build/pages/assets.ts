// The browser assets under site/: the stylesheet, after the owner's theme (theme-css.ts); the home page's
// script, bundled with esbuild from site/scripts/preview.ts so that the browser redraws the charts with the
// very functions the build used (render/charts/); and every page's head script, site/scripts/scheme.ts
// (the visitor's colour scheme); and the writings page's search box, site/scripts/search-box.ts, with the
// search it imports on first use, site/scripts/search.ts (an ES module, docs/site.md#search). esbuild is
// already how this project compiles.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Artifact } from '../artifact.ts';
import { SITE_DIR } from '../content/site-content.ts';
import { assertInsideSite, siteRoot } from '../content/site-files.ts';
import { ASSETS } from './layout.ts';
import { themeCss } from './theme-css.ts';
import type { Look } from '../../render/themes.ts';

/** The page scripts under site/scripts/: the home page's, the head script of every page, the writings page's. */
type ScriptName = 'preview' | 'scheme' | 'search-box' | 'search';

/** Scripts a page imports (`import()`), bundled as ES modules; the others are classic scripts. */
const MODULES: ReadonlySet<ScriptName> = new Set(['search']);

/** One bundle per site folder and script in a process (the tests build the site dozens of times). */
const SCRIPTS = new Map<string, Promise<string>>();

export function bundlePageScript(name: ScriptName, dir: URL = SITE_DIR): Promise<string> {
  const key = `${dir.href}#${name}`;
  let script = SCRIPTS.get(key);
  if (script === undefined) {
    script = bundleScript(name, dir);
    SCRIPTS.set(key, script);
    script.catch(() => SCRIPTS.delete(key));
  }
  return script;
}

async function bundleScript(name: ScriptName, dir: URL): Promise<string> {
  const result = await esbuild.build({
    entryPoints: [fileURLToPath(new URL(`scripts/${name}.ts`, dir))],
    bundle: true,
    write: false,
    format: MODULES.has(name) ? 'esm' : 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error(`esbuild produced no output for site/scripts/${name}.ts`);
  return file.text;
}

/** The stylesheet (the owner's theme, then site/styles/site.css) and the page scripts. */
export async function renderAssets(look: Look, dir: URL = SITE_DIR): Promise<Artifact[]> {
  // The stylesheet is published as it is: a link out of site/ is refused as any other site/ file's is.
  const css = new URL('styles/site.css', dir);
  assertInsideSite(siteRoot(dir), css, 'site/styles/site.css');
  return [
    { file: ASSETS.css.slice(1), body: themeCss(look) + readFileSync(css, 'utf8') },
    { file: ASSETS.previewScript.slice(1), body: await bundlePageScript('preview', dir) },
    { file: ASSETS.schemeScript.slice(1), body: await bundlePageScript('scheme', dir) },
    { file: ASSETS.searchBoxScript.slice(1), body: await bundlePageScript('search-box', dir) },
    { file: ASSETS.searchModule.slice(1), body: await bundlePageScript('search', dir) },
  ];
}
