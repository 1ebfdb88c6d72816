// The colours a chart is drawn with, and the default theme's (builders/render/themes.ts holds the six themes). The
// cards (standalone SVG images) carry their theme's as presentation attributes; the pages' charts carry
// these and the stylesheet overrides them with the owner's theme per scheme (a stylesheet rule beats a
// presentation attribute), so a page follows the reader's scheme while a card is fixed to the one in its
// name. The page script draws with these alone: it carries no other theme's colours.

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
