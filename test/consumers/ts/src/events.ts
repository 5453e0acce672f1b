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
  PagentUnknownEventDetail,
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
  expectTypeOf(e.detail.event).toEqualTypeOf<WireEvent>();
  // `switch` on the method narrows `params`, with no type guard first
  switch (e.detail.event.method) {
    case 'TextDelta':
      expectTypeOf(e.detail.event.params.text).toEqualTypeOf<string>();
      break;
    case 'ToolCallBegin':
      expectTypeOf(e.detail.event.params.name).toEqualTypeOf<string>();
      expectTypeOf(e.detail.event.params.arguments).toEqualTypeOf<string>();
      break;
    case 'RunError':
      expectTypeOf(e.detail.event.params.status).toEqualTypeOf<number | undefined>();
      // @ts-expect-error a RunError has no text
      void e.detail.event.params.text;
      break;
    case 'RunEnd':
      expectTypeOf(e.detail.event.params.stop_reason).toEqualTypeOf<StopReason | undefined>();
      break;
    // @ts-expect-error events of unknown methods come as pagent-unknown-event
    case 'STATE_SNAPSHOT':
      break;
  }
});
el.addEventListener('pagent-unknown-event', (e) => {
  expectTypeOf(e.detail).toEqualTypeOf<PagentUnknownEventDetail>();
  expectTypeOf(e.detail.event).toEqualTypeOf<UnknownEvent>();
  if (e.detail.event.method === 'STATE_SNAPSHOT') expectTypeOf(e.detail.event.params).toEqualTypeOf<Record<string, unknown>>();
});
// allowImage is given the image's URL as a URL object
el.allowImage = (url) => {
  expectTypeOf(url).toEqualTypeOf<URL>();
  return url.origin === 'https://images.example';
};
// @ts-expect-error it is given a URL, not a string
el.allowImage = (url: string) => url.startsWith('https:');
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
