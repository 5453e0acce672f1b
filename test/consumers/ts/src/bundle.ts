// The no-bundler build carries the element and the SDK, with the same types.
import { Agent, PagentChat, WireClient, createSessionStore } from 'pagent-web/pagent-chat.bundle.js';
import { expectTypeOf } from 'expect-type';

const chat = document.createElement('pagent-chat');
expectTypeOf(chat).toEqualTypeOf<PagentChat>();
declare const llm: ConstructorParameters<typeof Agent>[0]['llm'];
chat.agent = new Agent({ llm, store: createSessionStore(), sessionId: 'chat-1' });
chat.client = new WireClient('/api/chat');
chat.store = createSessionStore();
