// The class from `pagent-web/element`, under the page's own tag.
import { PagentChat } from 'pagent-web/element';
import { expectTypeOf } from 'expect-type';

export class MyChat extends PagentChat {}
customElements.define('my-chat', MyChat);

declare global {
  interface HTMLElementTagNameMap {
    'my-chat': MyChat;
  }
}

expectTypeOf(document.createElement('my-chat').src).toEqualTypeOf<string | undefined>();
document.createElement('my-chat').addEventListener('pagent-run-end', (e) => expectTypeOf(e.detail.params.content).toBeString());
