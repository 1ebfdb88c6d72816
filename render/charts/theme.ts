// The colours of the charts, light and dark. The cards (standalone SVG images) carry them as presentation
// attributes; the pages carry the light ones too and site/styles/site.css overrides them per scheme with
// the same values (a stylesheet rule beats a presentation attribute), so a page follows
// prefers-color-scheme while a card is fixed to the scheme in its name.

export interface ChartTheme {
  background: string;
  border: string;
  text: string;
  muted: string;
  grid: string;
  up: string;
  down: string;
  /** Heatmap levels 0 to 4 (GitHub's own palettes). */
  levels: readonly [string, string, string, string, string];
}

export const LIGHT: ChartTheme = {
  background: '#ffffff',
  border: '#d1d9e0',
  text: '#1f2328',
  muted: '#59636e',
  grid: '#d1d9e0',
  up: '#1a7f37',
  down: '#cf222e',
  levels: ['#ebedf0', '#9be9a8', '#40c463', '#30a14e', '#216e39'],
};

/** GitHub's dark palette, level 0 a shade lighter so that empty days still draw the grid; level 4 is the brightest. */
export const DARK: ChartTheme = {
  background: '#0d1117',
  border: '#3d444d',
  text: '#f0f6fc',
  muted: '#9198a1',
  grid: '#3d444d',
  up: '#3fb950',
  down: '#f85149',
  levels: ['#212830', '#033a16', '#196c2e', '#2ea043', '#56d364'],
};

export const THEMES = { light: LIGHT, dark: DARK } as const;
