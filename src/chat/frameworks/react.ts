/**
 * `<pagent-chat>` in React 19 JSX: `import type {} from 'pagent-web/react'` once (types only) and
 * `<pagent-chat src="/api/chat" onpagent-run-end={(e) => e.detail.params.stop_reason} />` type-checks.
 * React 19 sets every prop the element has as a property (`agent`, `client`, `store` take objects) and
 * turns `onpagent-*` props into event listeners.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { PagentChat } from '../element.js';
import type { PagentChatEventHandlers, PagentChatProperties } from './props.js';

/** The props of `<pagent-chat>` in React 19 JSX: HTML attributes, `ref`, properties, `onpagent-*` handlers. */
export type PagentChatReactProps = DetailedHTMLProps<HTMLAttributes<PagentChat>, PagentChat> &
  PagentChatProperties &
  PagentChatEventHandlers;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'pagent-chat': PagentChatReactProps;
    }
  }
}
