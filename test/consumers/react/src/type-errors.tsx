// Mistakes the JSX declaration catches (compiled by tsc with the app, never rendered).
import type {} from 'pagent-web/react';

export const wrong = [
  // @ts-expect-error themes are light, dark and auto
  <pagent-chat theme="blue" />,
  // @ts-expect-error pagent-run-end's detail has params, no text
  <pagent-chat onpagent-run-end={(e) => e.detail.text} />,
  // @ts-expect-error client must have stream()
  <pagent-chat client={{}} />,
  // @ts-expect-error no such property
  <pagent-chat sorce="/api/chat" />,
];
