// The embeddable SVG cards (docs/api.md#published-paths): each dataset's light and dark card, for a GitHub
// profile README or any page (`<img>`, `<picture>`), drawn from this build's payloads by the dataset's own
// module (datasets/*/card.ts) with the very functions that draw the home page's charts (render/charts/).
// A card whose snapshot is missing is not drawn at all, as the snapshot is not written.
import type { CardRef } from '../contract/service.ts';
import type { Artifact, BuildContext } from './artifact.ts';
import { THEMES } from '../render/charts/theme.ts';

export function cardBody(
  card: CardRef,
  ctx: Pick<BuildContext, 'datasets' | 'payloads' | 'nowMs' | 'simulated'>,
): string | null {
  const dataset = ctx.datasets.find((d) => d.resource.id === card.resource);
  const payload = ctx.payloads.get(card.resource);
  if (dataset === undefined || payload === undefined) return null;
  return dataset.card(payload, THEMES[card.scheme], ctx);
}

/** The cards whose snapshot this build has. */
export function renderCards(ctx: BuildContext): Artifact[] {
  return ctx.service.cards.flatMap((card) => {
    const body = cardBody(card, ctx);
    return body === null ? [] : [{ file: card.file, body }];
  });
}
