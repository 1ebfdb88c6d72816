// Debian's Chromium driven by playwright-core (which never downloads a browser of its own).
// Missing Chromium skips the browser test on a developer machine, and fails it under CI.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { IS_CI } from './ci.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export type BrowserAvailability = { available: true } | { available: false; reason: string; mustFail: boolean };

export function browserAvailability(): BrowserAvailability {
  if (existsSync(CHROMIUM_PATH)) return { available: true };
  return {
    available: false,
    mustFail: IS_CI,
    reason: `Chromium not found at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\`${IS_CI ? ' (CI is set, so this is a failure)' : ' (skipping the real-browser test)'}`,
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
