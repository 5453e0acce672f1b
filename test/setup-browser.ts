import { afterEach } from 'vitest';
import { fixtureCleanup } from '@open-wc/testing';

// @open-wc's fixture() only auto-cleans when mocha's global afterEach exists; do it explicitly for Vitest.
afterEach(() => {
  fixtureCleanup();
});
