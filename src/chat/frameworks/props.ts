/**
 * The element's public properties and events as framework templates see them, shared by the React,
 * Vue and Svelte declarations next to this file.
 */
import type { PagentChat } from '../element.js';
import type { PagentChatEventMap } from '../events.js';

/** The public properties a template may set on `<pagent-chat>`, all optional. */
export type PagentChatProperties = Partial<
  Pick<
    PagentChat,
    | 'src'
    | 'body'
    | 'agent'
    | 'client'
    | 'store'
    | 'workspace'
    | 'strings'
    | 'theme'
    | 'allowImage'
    | 'math'
    | 'renderers'
    | 'frameBatching'
    | 'wireLog'
    | 'stopGraceMs'
    | 'accept'
    | 'maxAttachmentBytes'
    | 'maxTotalAttachmentBytes'
    | 'maxImageSide'
    | 'voice'
    | 'transcribe'
    | 'readAloud'
    | 'feedback'
    | 'contextWindow'
  >
>;

/**
 * One `on<event name>` handler per DOM event (`onpagent-run-end`, …): the prop names React 19 and
 * Svelte 5 turn into `addEventListener('pagent-run-end', …)` on a custom element.
 */
export type PagentChatEventHandlers = {
  [K in keyof PagentChatEventMap as `on${K}`]?: (event: PagentChatEventMap[K]) => void;
};
