// What a demo build says about its data (`npm run demo` sets DEMO_SIMULATED=1), defined once for every
// place that says it: the market payload's `source`, the notice on each HTML page, the Markdown twins,
// llms.txt, llms-full.txt and the API index. A demo document must never pass for real data.

/** The market payload's `source` in a demo: it names the simulated provider, never the real one. */
export const SIMULATED_MARKET_SOURCE = 'Simulated provider (npm run demo)';

/** The notice's opening words; tests and readers look for them. */
export const SIMULATED_NOTICE_TITLE = 'Simulated data (demo).';

/**
 * The notice after its title. `imitated` is the market-data provider whose wire format the simulated
 * one speaks (site/site.json's name), so that the reader knows which real source this is not.
 */
export function simulatedNoticeText(imitated: string): string {
  return (
    `Every number on this site comes from a simulated provider running on this machine, not from ${imitated} or GitHub. ` +
    'Do not quote or publish it.'
  );
}

/**
 * The notice as the command-line tool prints it: it knows a site only through its documents, whose API
 * index says `simulated: true` on a demo, and not which provider the demo imitates.
 */
export const SIMULATED_NOTICE_FOR_READERS = `${SIMULATED_NOTICE_TITLE} Every number on this site comes from a simulated provider, not from a real market or GitHub. Do not quote or publish it.`;

/** The notice as one line of plain text (JSON descriptions, llms.txt). */
export function simulatedNoticeLine(imitated: string): string {
  return `${SIMULATED_NOTICE_TITLE} ${simulatedNoticeText(imitated)}`;
}

/** The notice as a Markdown block quote, for the twins and the llms files. */
export function simulatedNoticeMarkdown(imitated: string): string {
  return `> **${SIMULATED_NOTICE_TITLE}** ${simulatedNoticeText(imitated)}`;
}
