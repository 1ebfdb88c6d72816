// A BuildContext for rendering pages in process: the stock configuration at `siteUrl`, the registry's
// datasets with no payload, a fixed clock (23 November 2026, 15:00 UTC) and the default look.
import type { BuildContext } from '../../builders/build/artifact.ts';
import { createValidator } from '../../builders/contract/schemas.ts';
import { datasets, serviceTables } from '../../builders/datasets/registry.ts';
import { loadConfig } from '../../builders/lib/config.ts';
import { DEFAULT_LOOK } from '../../builders/render/themes.ts';

export function pagesContext(siteUrl = 'https://ada.example.org'): BuildContext {
  const config = loadConfig({ SITE_URL: siteUrl });
  return {
    config,
    service: serviceTables(config),
    nowMs: Date.UTC(2026, 10, 23, 15),
    datasets: datasets(config),
    payloads: new Map(),
    validator: createValidator(),
    simulated: false,
    look: DEFAULT_LOOK,
  };
}
