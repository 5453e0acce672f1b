// Stand-in for @web/test-runner-commands, which @open-wc/semantic-dom-diff imports for snapshot commands
// that only exist under @web/test-runner. Its real browser module does
// import('/__web-dev-server__web-socket.js'), which Vite's dep optimizer rewrites into an unresolvable
// relative import, and then the whole @open-wc/testing import fails under Vitest.
const unsupported = (): never => {
  throw new Error('@web/test-runner-commands is not available under Vitest (use Vitest snapshots instead)');
};
export const getSnapshot = unsupported;
export const getSnapshots = unsupported;
export const getSnapshotConfig = unsupported;
export const saveSnapshot = unsupported;
export const removeSnapshot = unsupported;
export const compareSnapshot = unsupported;
export const executeServerCommand = unsupported;
