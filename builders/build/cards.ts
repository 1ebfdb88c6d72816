// The embeddable SVG cards (docs/api.md#published-paths): each dataset's light and dark card, for a GitHub
// profile README or any page (`<img>`, `<picture>`), drawn from this build's payloads by the dataset's own
// module (datasets/*/card.ts) with the very functions that draw the home page's charts (render/charts/).
// A dataset whose snapshot is missing gets an "unavailable" card at the same paths
// (builders/render/unavailable-card.ts): no number, but never a broken image in a README that embeds it.
import { folderCardFile, type CardRef } from '../contract/service.ts';
import type { Artifact, BuildContext } from './artifact.ts';
import { unavailableCard } from '../render/unavailable-card.ts';

export function cardBody(
  card: CardRef,
  ctx: Pick<BuildContext, 'datasets' | 'payloads' | 'nowMs' | 'simulated' | 'outcomes' | 'look'>,
): string | null {
  const dataset = ctx.datasets.find((d) => d.resource.id === card.resource);
  if (dataset === undefined) return null;
  const payload = ctx.payloads.get(card.resource);
  // The owner's theme, in the card's scheme (builders/render/themes.ts).
  const palette = ctx.look[card.scheme];
  if (payload !== undefined) return dataset.card(payload, palette, ctx);
  const outcome = ctx.outcomes?.get(card.resource);
  const lastAvailableMs = outcome?.state === 'missing' ? outcome.lastAvailableMs : undefined;
  return unavailableCard(
    {
      title: dataset.resource.title,
      builtMs: ctx.nowMs,
      ...(lastAvailableMs !== undefined ? { lastAvailableMs } : {}),
      simulated: ctx.simulated,
    },
    palette,
  );
}

/** Every card of the deployment: its data's, or its "unavailable" one; then the cards drawn per item of a payload. */
export function renderCards(ctx: BuildContext): Artifact[] {
  const cards = ctx.service.cards.flatMap((card) => {
    const body = cardBody(card, ctx);
    return body === null ? [] : [{ file: card.file, body }];
  });
  const more = ctx.datasets.flatMap((dataset) => {
    const payload = ctx.payloads.get(dataset.resource.id);
    const folder = dataset.resource.cardFolder;
    if (payload === undefined || dataset.moreCards === undefined || folder === undefined) return [];
    return dataset.moreCards(payload).flatMap(({ name, draw }) =>
      (['light', 'dark'] as const).map((scheme) => ({
        file: folderCardFile(folder, scheme, name),
        body: draw(ctx.look[scheme], ctx),
      })),
    );
  });
  return [...cards, ...more];
}
