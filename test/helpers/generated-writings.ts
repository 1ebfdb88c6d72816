// Generated writings for measuring the build at scale (docs/performance.md#content-at-scale-issue-41): a
// copy of a site's content with `count` more writings of about 2 kB of Markdown each (a heading, emphasis,
// a link, inline and fenced code, a list, paragraphs), each with its own title, date and summary, so that
// every page and preview picture differs. Used by test/slow/content-scale.test.ts.
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The slug of the `i`th generated writing (its file name without `.md`). */
export function generatedSlug(i: number): string {
  return `generated-${String(i).padStart(5, '0')}`;
}

/** The Markdown of the `i`th of `count` generated writings, front matter included (about 2 kB). */
export function generatedWriting(i: number, count: number): string {
  // One a day, backwards from 2026-06-30: distinct dates, so the order is the dates'.
  const date = new Date(Date.UTC(2026, 5, 30) - i * 86_400_000).toISOString().slice(0, 10);
  return `---
title: "Generated writing ${i}: notes on pipelines, part ${(i % 7) + 1}"
date: ${date}
summary: Writing ${i} of ${count}, generated to measure the build at scale.
---
A paragraph of *emphasis* and **strong** text about writing ${i}, with [a link](https://example.com/notes/${i})
and some \`inline code\`. The build renders this page, its Markdown twin, its feed entries and its preview
picture.

## What writing ${i} is about

- the first item of the list of writing ${i}
- a second item with a few more words in it
- a third item

\`\`\`text
const value = ${i};
console.log(value * 2);
\`\`\`

Another paragraph that goes on for a while, to make the writing about two kilobytes long, as a real
writing of a few paragraphs would be. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do
eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud
exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.

### A smaller heading

Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.
Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est
laborum. Writing ${i} ends here.
`;
}

/**
 * Copies the content folder `from` (site.json, profile.md, writings/ …) to `to` and adds `count` generated
 * writings to its writings/. Returns their slugs.
 */
export async function contentWithWritings(from: string, to: string, count: number): Promise<string[]> {
  await cp(from, to, { recursive: true });
  const slugs: string[] = [];
  for (let i = 0; i < count; i++) {
    const slug = generatedSlug(i);
    await writeFile(join(to, 'writings', `${slug}.md`), generatedWriting(i, count));
    slugs.push(slug);
  }
  return slugs;
}
