/**
 * `<pagent-chat>` in Vue 3 templates: `import type {} from 'pagent-web/vue'` once (types only) and
 * vue-tsc checks `<pagent-chat :client="client" @pagent-run-end="onEnd" />`. Vue must also be told the
 * tag is a custom element (`compilerOptions.isCustomElement`, see docs/guides/integrate.md); it then sets every prop
 * the element has as a property.
 */
import type { EmitFn, HTMLAttributes, PublicProps } from 'vue';
import type { PagentChat } from '../element.js';
import type { PagentChatEventMap } from '../events.js';
import type { PagentChatProperties } from './props.js';

/** `<pagent-chat>` as a component type for Vue's `GlobalComponents`: its props and its events. */
export type PagentChatVueComponent = new () => PagentChat & {
  /** @deprecated Template type checking only; not on the element. */
  $props: HTMLAttributes & PagentChatProperties & PublicProps;
  /** @deprecated Template type checking only; not on the element. */
  $emit: EmitFn<{ [K in keyof PagentChatEventMap]: (event: PagentChatEventMap[K]) => void }>;
};

declare module 'vue' {
  interface GlobalComponents {
    'pagent-chat': PagentChatVueComponent;
  }
}
