/**
 * `<pagent-chat>` in Svelte 5 markup: `import type {} from 'pagent-web/svelte'` once (types only) and
 * svelte-check checks `<pagent-chat {client} onpagent-run-end={onEnd}></pagent-chat>`. Svelte 5 sets
 * every attribute the element has as a property and turns `onpagent-*` into event listeners.
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { PagentChat } from '../element.js';
import type { PagentChatEventHandlers, PagentChatProperties } from './props.js';

/** The attributes of `<pagent-chat>` in Svelte 5 markup: HTML attributes, properties, `onpagent-*` handlers. */
export type PagentChatSvelteAttributes = HTMLAttributes<PagentChat> & PagentChatProperties & PagentChatEventHandlers;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'pagent-chat': PagentChatSvelteAttributes;
  }
}
