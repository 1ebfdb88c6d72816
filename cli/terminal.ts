// Terminal text: colour only when wanted, word wrap to a width, aligned columns, Markdown for reading.
// Pure: the caller (run.ts) decides colour and width from stdout and the environment and passes them in.

export interface Terminal {
  color: boolean;
  width: number;
}

/**
 * no-color.org: "when present and not an empty string (regardless of its value), prevents the addition
 * of ANSI color". Colour is also only for a terminal: piped output stays plain.
 */
export function wantsColor(isTTY: boolean | undefined, env: Record<string, string | undefined>): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  // FORCE_COLOR (as Node and most CLIs read it): colour through a pipe too, e.g. into `less -R`.
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY === true;
}

/** The terminal's width when stdout is one, else $COLUMNS, else 80; never narrower than 20. */
export function widthOf(columns: number | undefined, env: Record<string, string | undefined>): number {
  const fromEnv = Number(env.COLUMNS);
  const width = columns && columns > 0 ? columns : Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : 80;
  return Math.max(20, width);
}

const SGR = {
  bold: [1, 22],
  dim: [2, 22],
  italic: [3, 23],
  underline: [4, 24],
  cyan: [36, 39],
  green: [32, 39],
  red: [31, 39],
  yellow: [33, 39],
} as const;
export type StyleName = keyof typeof SGR;

export function style(term: Terminal, name: StyleName, text: string): string {
  if (!term.color || text === '') return text;
  const [on, off] = SGR[name];
  return `\u001b[${on}m${text}\u001b[${off}m`;
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** Columns a string takes, escapes excluded (wide scripts count as one: good enough for this content). */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}

/**
 * Words to lines of at most `width` columns. A word longer than the width (a URL) keeps its own line
 * unbroken, so it stays clickable and copyable.
 */
export function wrap(text: string, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line === '') line = word;
    else if (visibleLength(line) + 1 + visibleLength(word) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** Wraps `text` to the terminal, the first line after `first`, the next ones after `rest` (hanging indent). */
export function wrapIndented(
  text: string,
  width: number,
  first: string,
  rest = ' '.repeat(visibleLength(first)),
): string[] {
  const room = Math.max(10, width - visibleLength(rest));
  return wrap(text, room).map((line, i) => (i === 0 ? first : rest) + line);
}

/**
 * Rows aligned in columns: every column but the last padded to its widest cell, the last wrapped in the
 * room left. When that room is too narrow, the last cell goes on its own indented lines instead.
 */
export function table(rows: string[][], width: number, indent = '  ', gap = '  '): string[] {
  if (rows.length === 0) return [];
  const columns = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: columns - 1 }, (_, c) =>
    Math.max(0, ...rows.map((r) => (c < r.length - 1 ? visibleLength(r[c]!) : 0))),
  );
  const lead = visibleLength(indent) + widths.reduce((sum, w) => sum + w + visibleLength(gap), 0);
  const narrow = width - lead < 24;
  const out: string[] = [];
  for (const row of rows) {
    const cells = row.slice(0, -1).map((cell, c) => cell + ' '.repeat(widths[c]! - visibleLength(cell)));
    const last = row.at(-1) ?? '';
    const head = indent + cells.map((c) => c + gap).join('');
    if (last === '') out.push(head.trimEnd());
    else if (!narrow) out.push(...wrapIndented(last, width, head, ' '.repeat(lead)));
    else {
      out.push(head.trimEnd());
      out.push(...wrapIndented(last, width, indent + '    '));
    }
  }
  return out;
}

/**
 * Inline Markdown for a terminal: links as `text <url>`, emphasis and code styled, markers dropped.
 * A link label holds no "[": from each "[" the match then reads to the next bracket only, so a run of
 * "[" costs linear time (with `[^\]]+` each "[" read the whole rest of the run: quadratic).
 */
export function inline(term: Terminal, text: string): string {
  return text
    .replace(/`([^`]+)`/g, (_, code: string) => (term.color ? style(term, 'cyan', code) : `\`${code}\``))
    .replace(/!?\[([^[\]]+)\]\(<?([^()\s<>]+)>?\)/g, (_, label: string, url: string) =>
      label === url ? url : `${label} ${style(term, 'dim', `<${url}>`)}`,
    )
    .replace(/\*\*([^*]+)\*\*|__([^_]+)__/g, (_, a?: string, b?: string) => style(term, 'bold', a ?? b ?? ''))
    .replace(
      /(^|[\s(])\*([^*\s][^*]*)\*(?=[\s).,;:!?]|$)/g,
      (_, pre: string, body: string) => pre + style(term, 'italic', body),
    );
}

/**
 * A Markdown body rendered for reading in a terminal: headings styled, paragraphs and list items
 * wrapped, quotes marked, code blocks and tables kept verbatim (their line breaks carry meaning).
 */
export function renderMarkdown(term: Terminal, markdown: string, indent = ''): string[] {
  const out: string[] = [];
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const blank = () => {
    if (out.length && out.at(-1) !== '') out.push('');
  };
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(...wrapIndented(inline(term, paragraph.join(' ')), term.width, indent));
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    const fence = /^(```+|~~~+)/.exec(trimmed);
    if (fence) {
      flush();
      blank();
      const close = fence[1]!;
      for (i++; i < lines.length && !lines[i]!.trim().startsWith(close); i++)
        out.push(indent + '    ' + style(term, 'cyan', lines[i]!));
      blank();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    if (heading) {
      flush();
      blank();
      const level = heading[1]!.length;
      const text = inline(term, heading[2]!.replace(/\s+#+$/, ''));
      out.push(
        ...wrapIndented(level <= 2 ? style(term, 'bold', text) : style(term, 'underline', text), term.width, indent),
      );
      out.push('');
      continue;
    }
    if (trimmed === '') {
      flush();
      blank();
      continue;
    }
    const item = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const depth = Math.floor(item[1]!.length / 2);
      const marker = /\d/.test(item[2]!) ? item[2]! : '•';
      const first = indent + '  '.repeat(depth) + marker + ' ';
      // continuation lines of the same item (indented, not a new item) belong to it
      let text = item[3]!;
      while (i + 1 < lines.length && /^\s+\S/.test(lines[i + 1]!) && !/^\s*([-*+]|\d+[.)])\s/.test(lines[i + 1]!))
        text += ' ' + lines[++i]!.trim();
      out.push(...wrapIndented(inline(term, text), term.width, first));
      continue;
    }
    if (trimmed.startsWith('>')) {
      flush();
      const quote: string[] = [];
      for (; i < lines.length && lines[i]!.trim().startsWith('>'); i++)
        quote.push(lines[i]!.trim().replace(/^>\s?/, ''));
      i--;
      out.push(
        ...wrapIndented(
          style(term, 'italic', inline(term, quote.join(' '))),
          term.width,
          indent + style(term, 'dim', '│ '),
        ),
      );
      continue;
    }
    if (trimmed.startsWith('|') || /^\s{4}/.test(line) || /^(-{3,}|\*{3,}|_{3,})$/.test(trimmed)) {
      flush();
      out.push(
        indent +
          (/^(-{3,}|\*{3,}|_{3,})$/.test(trimmed)
            ? style(term, 'dim', '─'.repeat(Math.min(40, term.width - indent.length)))
            : line),
      );
      continue;
    }
    paragraph.push(trimmed);
  }
  flush();
  while (out.at(-1) === '') out.pop();
  return out;
}
