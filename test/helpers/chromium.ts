/**
 * How Node-side code (e2e tests, benchmarks) starts Debian's headless Chromium with playwright-core, the
 * same browser and flags as the browser test project.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../vite.config.js';

/** Launch options for playwright-core: `CHROMIUM_PATH` (else /usr/bin/chromium), the test flags, headless. */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: CHROMIUM_ARGS,
  headless: true,
} as const;

/** Launches headless Chromium with {@link CHROMIUM_LAUNCH_OPTIONS}. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
}
