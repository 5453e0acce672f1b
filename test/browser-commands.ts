/**
 * Commands the browser tests call on the test runner's side (`commands` from `vitest/browser`), where
 * Playwright drives the page: here, the network the page's module loads go through.
 */
import type { BrowserCommand } from 'vitest/node';

/** URL globs whose requests fail as if the network were down (see {@link setOffline}). */
const failing = new Map<string, () => Promise<void>>();

/**
 * Makes every request whose URL matches `glob` fail with a network error (`offline: true`), or lets
 * them through again (`false`): a lazily loaded chunk that cannot be fetched, for real.
 */
export const setOffline: BrowserCommand<[glob: string, offline: boolean]> = async (ctx, glob, offline) => {
  if (ctx.provider.name !== 'playwright') throw new Error('setOffline needs the Playwright provider');
  const page = (ctx as unknown as { page: import('playwright').Page }).page;
  const undo = failing.get(glob);
  if (offline && !undo) {
    const handler = (route: import('playwright').Route): Promise<void> => route.abort('internetdisconnected');
    await page.route(glob, handler);
    failing.set(glob, () => page.unroute(glob, handler));
  } else if (!offline && undo) {
    failing.delete(glob);
    await undo();
  }
};

declare module 'vitest/browser' {
  interface BrowserCommands {
    setOffline: (glob: string, offline: boolean) => Promise<void>;
  }
}
