// The element's DOM events and tag, typed from `import 'pagent-web/pagent-chat.js'` alone.
import 'pagent-web/pagent-chat.js';
import { expectTypeOf } from 'expect-type';
import type { PagentError, StopReason, UnknownEvent, WireEvent } from 'pagent-web';
import type {
  PagentChat,
  PagentChatEventMap,
  PagentChatStrings,
  PagentErrorDetail,
  PagentEventDetail,
  PagentRunEndDetail,
  PagentSendDetail,
  PagentStateDetail,
} from 'pagent-web/element';

const chat = document.querySelector('pagent-chat');
expectTypeOf(chat).toEqualTypeOf<PagentChat | null>();
expectTypeOf(document.createElement('pagent-chat')).toEqualTypeOf<PagentChat>();

const el = document.createElement('pagent-chat');
el.addEventListener('pagent-run-end', (e) => {
  expectTypeOf(e).toEqualTypeOf<CustomEvent<PagentRunEndDetail>>();
  expectTypeOf(e.detail.params.stop_reason).toEqualTypeOf<StopReason | undefined>();
  expectTypeOf(e.detail.params.content).toBeString();
});
el.addEventListener('pagent-send', (e) => {
  expectTypeOf(e.detail).toEqualTypeOf<PagentSendDetail>();
  expectTypeOf(e.detail.text).toBeString();
  e.preventDefault();
});
el.addEventListener('pagent-event', (e) => {
  expectTypeOf(e.detail).toEqualTypeOf<PagentEventDetail>();
  expectTypeOf(e.detail.event).toEqualTypeOf<WireEvent | UnknownEvent>();
});
el.addEventListener('pagent-error', (e) => {
  expectTypeOf(e.detail).toEqualTypeOf<PagentErrorDetail>();
  expectTypeOf(e.detail.error).toEqualTypeOf<PagentError>();
});
el.addEventListener('pagent-state', (e) => {
  expectTypeOf(e.detail).toEqualTypeOf<PagentStateDetail>();
  expectTypeOf(e.detail.state).toBeUnknown();
});
// the events bubble and cross shadow roots: a listener on any element or the document is typed too
document.addEventListener('pagent-run-end', (e) => expectTypeOf(e.detail.params.content).toBeString());
document.body.addEventListener('pagent-error', (e) => expectTypeOf(e.detail.error.code).not.toBeAny());

expectTypeOf<HTMLElementEventMap['pagent-run-end']>().toEqualTypeOf<CustomEvent<PagentRunEndDetail>>();
expectTypeOf<HTMLElementEventMap['pagent-state']>().toEqualTypeOf<CustomEvent<PagentStateDetail>>();
expectTypeOf<HTMLElementEventMap['pagent-send']>().toEqualTypeOf<PagentChatEventMap['pagent-send']>();

el.addEventListener('pagent-send', (e) => {
  // @ts-expect-error pagent-send's detail is {text}, it has no params
  void e.detail.params;
});

const strings: Partial<PagentChatStrings> = { send: 'Go', placeholder: 'Ask anything' };
el.strings = strings;
// @ts-expect-error no such string
el.strings = { sendd: 'Go' };
el.theme = 'dark';
// @ts-expect-error themes are light, dark and auto
el.theme = 'blue';
