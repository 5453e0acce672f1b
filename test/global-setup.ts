import type { TestProject } from 'vitest/node';
import { startTestServer } from './server/index.js';

// Runs once in Node before any project; the URL reaches browser tests through inject('apiUrl').
export default async function setup(project: TestProject) {
  const { url, close } = await startTestServer();
  project.provide('apiUrl', url);
  return close;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the local test server (cross-origin for browser tests, CORS enabled). */
    apiUrl: string;
  }
}
