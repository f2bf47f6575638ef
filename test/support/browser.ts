import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium; tests never download a browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a root, offline machine: no sandbox, no GPU, no background network chatter. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];

/** @param extraArgs more Chromium switches for one suite (an autoplay policy, say) */
export async function launchBrowser(extraArgs: readonly string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with 'apt-get install -y chromium' (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true, timeout: 30_000 });
}

/**
 * For `page.waitForFunction(showsFile, name)`: the viewer is open on the file `name` and takes
 * keys (its opening animation is over). Its deep link (`#photo=`) names the file; the caption
 * shows when it was taken instead (docs/api.md#dates).
 */
export function showsFile(name: string): boolean {
  return document.querySelector('.pswp.pswp--opened') !== null && new URLSearchParams(window.location.hash.slice(1)).get('photo') === name;
}
