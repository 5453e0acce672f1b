import type { Connect, Plugin } from 'vite';

/** The demo's local servers (no network, no API key): mounted on the dev and preview servers. */
export function demoServer(): Plugin {
  const mount = (_app: Connect.Server): void => {};
  return {
    name: 'pagent-demo-server',
    configureServer(server) {
      mount(server.middlewares);
    },
    configurePreviewServer(server) {
      mount(server.middlewares);
    },
  };
}
