/**
 * Registers `<pagent-chat>`. Import for its side effect: `import 'pagent-web/pagent-chat.js'`.
 * Registration is skipped when the tag is already taken, or when the page already registered the class
 * under a tag of its own (`customElements.define('my-chat', PagentChat)`): a registry takes each class once.
 */
import { PagentChat } from './element.js';

export * from './element.js';

if (!customElements.get('pagent-chat')) {
  try {
    customElements.define('pagent-chat', PagentChat);
  } catch (err) {
    // NotSupportedError: the class is registered under another tag already; that registration stands.
    if (!(err instanceof DOMException && err.name === 'NotSupportedError')) throw err;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pagent-chat': PagentChat;
  }
}
