// The owner's look (builders/render/themes.ts, docs/site.md#themes): the six themes' twelve palettes meet WCAG 2.2
// AA, every card drawn in each of them keeps its text at 4.5:1 (3:1 when large) on its background, the
// themes differ, site.json's `theme` and `accent` are checked (exit 2, one line), and only the owner's
// theme ships in the stylesheet. The pages themselves are audited by axe-core in Chromium
// (test/slow/themes-browser.test.ts).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../builders/lib/errors.ts';
import {
  CONTRAST_PAIRS,
  contrastRatio,
  formatRatio,
  lookOf,
  MIN_GRAPHICS_CONTRAST,
  MIN_TEXT_CONTRAST,
  SCHEMES,
  THEME_NAMES,
  THEMES,
  type Look,
} from '../builders/render/themes.ts';
import { themeCss } from '../builders/build/pages/theme-css.ts';
import { codeColours } from '../builders/render/code-colours.ts';
import { cardBody } from '../builders/build/cards.ts';
import { datasets, DEFAULT_SERVICE } from '../builders/datasets/registry.ts';
import { loadConfig } from '../builders/lib/config.ts';
import { noCalls, startFakeUpstreams, type FakeUpstreams } from './fakes/upstreams.ts';
import { upstreamEnv } from './helpers/run.ts';
import { runBuild, sharedSite, TEST_SITE_CLOCK } from './helpers/site-dist.ts';
import { contentCopy } from './helpers/hostile-content.ts';
import { startTags } from './helpers/svg-card.ts';

const VARIANTS = THEME_NAMES.flatMap((theme) => SCHEMES.map((scheme) => [theme, scheme] as const));

describe('the contrast arithmetic (WCAG 2.2)', () => {
  it('gives 21:1 for black on white, 1:1 for a colour on itself, and the known 4.48:1 of #777777 on white', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#0b57d0', '#0b57d0')).toBe(1);
    expect(formatRatio(contrastRatio('#777777', '#ffffff'))).toBe('4.47:1');
  });
});

describe('the twelve palettes', () => {
  it.each(VARIANTS)('%s %s: every text colour reaches 4.5:1 on every background it is drawn on', (theme, scheme) => {
    const palette = THEMES[theme][scheme];
    const failures = CONTRAST_PAIRS.flatMap(({ colours, on, min }) =>
      colours.flatMap((colour) =>
        on
          .map((background) => ({
            colour,
            background,
            ratio: contrastRatio(palette[colour] as string, palette[background] as string),
            min,
          }))
          .filter((pair) => pair.ratio < pair.min)
          .map((pair) => `${pair.colour} on ${pair.background}: ${formatRatio(pair.ratio)}`),
      ),
    );
    expect(failures).toEqual([]);
    expect(CONTRAST_PAIRS.every((p) => p.min >= MIN_TEXT_CONTRAST)).toBe(true);
  });

  it.each(VARIANTS)("%s %s: the charts' lines and the busiest day reach 3:1 as graphics", (theme, scheme) => {
    const p = THEMES[theme][scheme];
    for (const colour of [p.up, p.down, p.levels[4], p.levels[3]])
      expect(contrastRatio(colour, p.background)).toBeGreaterThanOrEqual(MIN_GRAPHICS_CONTRAST);
  });

  it('six themes differ in page background and link colour, in each variant', () => {
    for (const scheme of SCHEMES) {
      expect(new Set(THEME_NAMES.map((t) => THEMES[t][scheme].background)).size).toBe(6);
      expect(new Set(THEME_NAMES.map((t) => THEMES[t][scheme].accent)).size).toBe(6);
    }
  });

  it('each variant is light or dark as named: a light background is lighter than its text', () => {
    for (const theme of THEME_NAMES) {
      const { light, dark } = THEMES[theme];
      expect(contrastRatio(light.background, '#000000')).toBeGreaterThan(contrastRatio(light.text, '#000000'));
      expect(contrastRatio(dark.background, '#ffffff')).toBeGreaterThan(contrastRatio(dark.text, '#ffffff'));
    }
  });
});

describe("site.json's theme and accent (lookOf)", () => {
  const refusal = (settings: Record<string, unknown>): ConfigError => {
    try {
      lookOf(settings);
    } catch (error) {
      if (error instanceof ConfigError) return error;
      throw error;
    }
    throw new Error(`lookOf accepted ${JSON.stringify(settings)}`);
  };

  it('defaults to the default theme, with its own link colours', () => {
    const look = lookOf({});
    expect(look.theme).toBe('default');
    expect(look.light).toEqual(THEMES.default.light);
    expect(look.dark).toEqual(THEMES.default.dark);
  });

  it('refuses an unknown theme, naming site.json, the field and the six themes', () => {
    const error = refusal({ theme: 'neon' });
    expect(error.message).toMatch(/^site\/site\.json: "theme" "neon" is not a theme; choose one of /);
    for (const name of THEME_NAMES) expect(error.message).toContain(name);
    expect(refusal({ theme: 7 }).message).toMatch(/"theme" 7 is not a theme/);
  });

  it('refuses an accent under 4.5:1 on a background it colours, naming the field and the ratio', () => {
    const error = refusal({ accent: '#ffff00' });
    expect(error.message).toMatch(
      /"accent" #ffff00 has 1\.07:1 against the default theme's light background #ffffff; links need 4\.5:1/,
    );
    // one colour for both variants must pass on both: this blue is fine on white, not on the dark background
    expect(refusal({ accent: '#0b57d0' }).message).toMatch(
      /"accent" #0b57d0 has \d\.\d\d:1 against the default theme's dark background/,
    );
    expect(refusal({ theme: 'dracula', accent: { light: '#644ac9', dark: '#44475a' } }).message).toMatch(
      /"accent" #44475a has 1\.\d\d:1 against the dracula theme's dark background #282a36/,
    );
  });

  it('refuses an accent that is not #rrggbb or a {light, dark} pair', () => {
    expect(refusal({ accent: 'blue' }).message).toMatch(/"accent" "blue" is not a colour written #rrggbb/);
    expect(refusal({ accent: { light: '#00009f' } }).message).toMatch(/"accent\.dark" undefined is not a colour/);
    expect(refusal({ accent: { light: '#00009f', dark: '#ffff00', dim: '#000000' } }).message).toMatch(
      /takes only "light" and "dark"/,
    );
    expect(refusal({ accent: ['#000000'] }).message).toMatch(/"accent" must be/);
  });

  it('an accent pair colours the links of each variant, and only the links', () => {
    const look = lookOf({ theme: 'nord', accent: { light: '#8f3c7a', dark: '#f0a8d8' } });
    expect(look.light).toEqual({ ...THEMES.nord.light, accent: '#8f3c7a' });
    expect(look.dark).toEqual({ ...THEMES.nord.dark, accent: '#f0a8d8' });
    expect(lookOf({ theme: 'high-contrast', accent: { light: '#0033CC', dark: '#66CCFF' } }).dark.accent).toBe(
      '#66ccff',
    );
  });
});

describe("the stylesheet's theme (builders/build/pages/theme-css.ts)", () => {
  it.each(THEME_NAMES)("%s: ships its own two palettes' colours and no other", (theme) => {
    const look = lookOf({ theme });
    const css = themeCss(look);
    const colours = (p: object) =>
      Object.values(p)
        .flat()
        .filter((v): v is string => /^#[0-9a-f]{6}$/.test(String(v)));
    // the palettes' colours, and the code tokens derived from them (builders/render/code-colours.ts)
    const own = [look.light, look.dark].flatMap((p) => [...colours(p), ...Object.values(codeColours(p))]);
    expect(new Set(css.match(/#[0-9a-f]{6}\b/g))).toEqual(new Set(own));
    // the system's scheme unless the visitor chose one: the attribute the head script sets
    expect(css).toContain("@media (prefers-color-scheme: dark){:root:not([data-scheme='light']){");
    expect(css).toContain(":root[data-scheme='dark']{");
  });
});

/** Each <text> of an SVG card with the fill, size and weight it inherits, as a renderer computes them. */
function cardTexts(svg: string): Array<{ text: string; fill: string; size: number; bold: boolean }> {
  const out: Array<{ text: string; fill: string; size: number; bold: boolean }> = [];
  const stack: Array<Map<string, string>> = [];
  const inherited = (name: string) => {
    for (let i = stack.length - 1; i >= 0; i--) {
      const value = stack[i]!.get(name);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  for (const m of svg.matchAll(/<(\/?)([A-Za-z][\w:.-]*)([^>]*?)(\/?)>([^<]*)/g)) {
    const [, closing, name, attrs, selfClosing, following] = m;
    if (closing) {
      stack.pop();
      continue;
    }
    const attributes = startTags(`<${name}${attrs}>`)[0]!.attributes;
    stack.push(attributes);
    if (name === 'text' && following!.trim() !== '')
      out.push({
        text: following!.trim(),
        fill: inherited('fill')!,
        size: Number(inherited('font-size') ?? 16),
        bold: Number(inherited('font-weight') ?? 400) >= 600,
      });
    if (selfClosing) stack.pop();
  }
  return out;
}

describe('every card in every theme', () => {
  const site = sharedSite();
  let payloads: Map<string, unknown>;
  beforeAll(async () => {
    const config = loadConfig({});
    payloads = new Map();
    for (const d of datasets(config))
      payloads.set(d.resource.id, JSON.parse(await site.read(d.resource.snapshotFiles[0]!)));
  });
  const draw = (look: Look, withData: boolean) =>
    DEFAULT_SERVICE.cards.map((card) => {
      const svg = cardBody(card, {
        datasets: datasets(loadConfig({})),
        payloads: withData ? payloads : new Map(),
        nowMs: TEST_SITE_CLOCK,
        simulated: true,
        look,
      })!;
      return { card, svg };
    });

  it.each(THEME_NAMES)(
    '%s: each text of each card, light and dark, with data and unavailable, meets 4.5:1 (3:1 when large) on the card',
    (theme) => {
      const look = lookOf({ theme });
      const failures: string[] = [];
      let checked = 0;
      for (const withData of [true, false])
        for (const { card, svg } of draw(look, withData)) {
          const background = look[card.scheme].background;
          expect(svg).toContain(`fill="${background}"`);
          for (const t of cardTexts(svg)) {
            checked++;
            const large = t.size >= 24 || (t.bold && t.size >= 18.66);
            const ratio = contrastRatio(t.fill, background);
            if (ratio < (large ? MIN_GRAPHICS_CONTRAST : MIN_TEXT_CONTRAST))
              failures.push(`${card.file} "${t.text}" ${t.fill} on ${background}: ${formatRatio(ratio)}`);
          }
        }
      expect(failures).toEqual([]);
      // every card has its title, figures and small print: dozens of texts each
      expect(checked).toBeGreaterThan(DEFAULT_SERVICE.cards.length * 2 * 3);
    },
  );

  it('the six themes draw their cards in six palettes', () => {
    for (const scheme of SCHEMES) {
      const card = DEFAULT_SERVICE.cards.find((c) => c.scheme === scheme)!;
      const palettes = THEME_NAMES.map((theme) => {
        const svg = draw(lookOf({ theme }), true).find((d) => d.card.file === card.file)!.svg;
        return [...new Set([...svg.matchAll(/(?:fill|stroke)="(#[0-9a-f]{6})"/g)].map((m) => m[1]))].sort().join(' ');
      });
      expect(new Set(palettes).size).toBe(6);
    }
  });
});

describe('a build with a theme', () => {
  let fake: FakeUpstreams;
  beforeAll(async () => {
    fake = await startFakeUpstreams({ now: () => TEST_SITE_CLOCK });
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function buildWith(siteJson: Record<string, unknown>) {
    const fixture = JSON.parse(await readFile(join(import.meta.dirname, 'fixtures/site/site.json'), 'utf8'));
    const content = await contentCopy({ 'site.json': JSON.stringify({ ...fixture, ...siteJson }) });
    const outDir = join(content.dir, 'dist');
    const env = { ...upstreamEnv(fake.url), SOURCE_DATE_EPOCH: String(TEST_SITE_CLOCK / 1000) };
    const result = await runBuild(outDir, env, { content: content.dir });
    return { result, outDir, close: content.close };
  }

  it("draws the stylesheet and the cards in the owner's theme", async () => {
    const built = await buildWith({ theme: 'gruvbox' });
    try {
      expect(built.result.code).toBe(0);
      const css = await readFile(join(built.outDir, 'assets/site.css'), 'utf8');
      expect(css).toContain(`--bg:${THEMES.gruvbox.light.background}`);
      expect(css).not.toContain(THEMES.default.dark.background);
      expect(await readFile(join(built.outDir, 'cards/mon-price-dark.svg'), 'utf8')).toContain(
        `fill="${THEMES.gruvbox.dark.background}"`,
      );
    } finally {
      await built.close();
    }
  });

  it.each([
    [
      { theme: 'neon' },
      /"theme" "neon" is not a theme; choose one of default, nord, solarized, gruvbox, dracula, high-contrast$/,
    ],
    [{ accent: '#ffff00' }, /"accent" #ffff00 has 1\.07:1 against the default theme's light background/],
  ])('%j: exit 2, one line naming site.json and the field, nothing fetched or written', async (settings, line) => {
    fake.resetCalls();
    const built = await buildWith(settings);
    try {
      expect(built.result.code).toBe(2);
      const lines = built.result.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^build: invalid configuration: site\/site\.json: /);
      expect(lines[0]).toMatch(line);
      expect(noCalls(fake.calls), JSON.stringify(fake.calls)).toBe(true);
      await expect(readdir(built.outDir)).rejects.toThrow(/ENOENT/);
    } finally {
      await built.close();
    }
  });
});
