import { LitElement, html } from 'lit';

/**
 * `<pagent-chat>`: renders a live agent timeline. Placeholder until the element lands.
 * @tag pagent-chat
 */
export class PagentChat extends LitElement {
  override render() {
    return html`<div part="timeline" role="log"></div>`;
  }
}
