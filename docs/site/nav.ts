/**
 * The site's table of contents: every page, in order, under its section. `source` is the Markdown file the
 * page shows, relative to the repository root; the page's URL mirrors its path under docs/ (`.md` →
 * `.html`). A new page is a file plus a line here.
 */
export interface NavPage {
  /** The Markdown file, from the repository root. */
  source: string;
  /** The page's path under the site root, e.g. `guides/element.html`. */
  url: string;
  title: string;
}
export interface NavSection {
  title: string;
  pages: NavPage[];
}

const page = (source: string, title: string, url = source.replace(/^docs\//, '').replace(/\.md$/, '.html')): NavPage => ({ source, url, title });

export const NAV: NavSection[] = [
  { title: 'Start', pages: [page('docs/index.md', 'pagent-web', 'index.html')] },
  {
    title: 'Guides',
    pages: [
      page('docs/guides/element.md', 'The <pagent-chat> element'),
      page('docs/guides/markdown.md', 'Markdown, code and math in answers'),
      page('docs/guides/voice.md', 'Voice, feedback and the context meter'),
      page('docs/guides/wire-client.md', 'WireClient: a stream in TypeScript'),
      page('docs/guides/agent.md', 'Agent: a BYO-key agent in the browser'),
      page('docs/guides/runner.md', "The agent's Runner features"),
      page('docs/guides/remote-agent.md', 'RemoteAgent: AI SDK and AG-UI back ends'),
      page('docs/guides/sessions.md', 'Sessions and the store'),
      page('docs/guides/never-lose.md', 'Reloads, drops and tabs'),
      page('docs/guides/server.md', 'Integrate: the server contract'),
      page('docs/guides/integrate.md', 'Integrate: no bundler, CSP, frameworks'),
      page('docs/guides/errors.md', 'Errors'),
      page('docs/guides/examples.md', 'Live examples'),
    ],
  },
  {
    title: 'Reference',
    pages: [
      page('docs/reference/element.md', '<pagent-chat> reference'),
      page('docs/reference/wire-events.md', 'Wire reference'),
      page('docs/reference/sdk.md', 'SDK reference'),
      page('docs/reference/element-api.md', 'Element API reference'),
    ],
  },
  {
    title: 'Design notes',
    pages: [
      page('docs/architecture.md', 'Architecture'),
      page('docs/wire.md', 'The wire format'),
      page('docs/dependencies.md', 'Dependencies, and why'),
      page('docs/limits.md', 'Limits'),
    ],
  },
  {
    title: 'Measurements',
    pages: [
      page('bench/results.md', 'Benchmarks', 'benchmarks.html'),
      page('docs/sizes.md', 'Sizes'),
      page('docs/development.md', 'Development: tests, benchmarks, the demo'),
    ],
  },
];

/** Every page, in the order of the table of contents. */
export const PAGES: NavPage[] = NAV.flatMap((s) => s.pages);
