// <pagent-chat> on a server's stream: it POSTs {"message": text} to `src` and renders what comes back.
// Here the server is the demo's wire server, an Agent running in Node against the scripted model.
import 'pagent-web/pagent-chat.js';

export default async function run(target: HTMLElement): Promise<void> {
  const chat = document.createElement('pagent-chat');
  chat.src = '/demo/api/chat';
  target.append(chat);
  const ended = new Promise((resolve) => chat.addEventListener('pagent-run-end', resolve, { once: true }));
  chat.send('Weather in Tokyo?');
  await ended;
}
