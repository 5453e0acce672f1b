import 'pagent-web/pagent-chat.js';
import type {} from 'pagent-web/react';
import { useRef, useState } from 'react';
import type { ChatClient, PagentChat } from 'pagent-web/element';
import { scriptedClient } from './client.js';

const client: ChatClient = scriptedClient('Hello from React');

export function App() {
  const chat = useRef<PagentChat>(null);
  const [sent, setSent] = useState('');
  const [stopReason, setStopReason] = useState('');
  return (
    <main>
      <pagent-chat
        ref={chat}
        client={client}
        lang="ja"
        theme="dark"
        wireLog
        strings={{ placeholder: 'React placeholder' }}
        style={{ height: '420px' }}
        onpagent-send={(e) => setSent(e.detail.text)}
        onpagent-run-end={(e) => setStopReason(e.detail.params.stop_reason ?? '')}
      />
      <output id="sent">{sent}</output>
      <output id="stop-reason">{stopReason}</output>
    </main>
  );
}
