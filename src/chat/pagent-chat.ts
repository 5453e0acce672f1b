/** Registers `<pagent-chat>`. Import for its side effect: `import 'pagent-web/pagent-chat.js'`. */
import { PagentChat } from './element.js';

export { PagentChat };

if (!customElements.get('pagent-chat')) customElements.define('pagent-chat', PagentChat);

declare global {
  interface HTMLElementTagNameMap {
    'pagent-chat': PagentChat;
  }
}
