/**
 * Scripted stand-ins for the Web Speech interfaces (headless Chromium has no recogniser and no voices):
 * a `SpeechRecognition` the test drives result by result, and a `speechSynthesis` that records what it
 * is asked to speak and starts and ends each utterance when the test says so.
 */

/** One recogniser made by the element. */
export class FakeRecognition {
  static made: FakeRecognition[] = [];
  lang = '';
  continuous = false;
  interimResults = false;
  started = false;
  stopped = false;
  aborted = false;
  onresult: ((e: unknown) => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  private results: Array<{ transcript: string; isFinal: boolean }> = [];
  constructor() {
    FakeRecognition.made.push(this);
  }
  start(): void {
    this.started = true;
  }
  stop(): void {
    this.stopped = true;
    queueMicrotask(() => this.onend?.());
  }
  abort(): void {
    this.aborted = true;
    queueMicrotask(() => this.onend?.());
  }
  /** Reports the result at `index` (interim or final), as Chromium does: every result so far, `resultIndex` the first changed. */
  say(index: number, transcript: string, isFinal: boolean): void {
    this.results[index] = { transcript, isFinal };
    const results = this.results.map((r) => Object.assign([{ transcript: r.transcript, confidence: 0.9 }], { isFinal: r.isFinal }));
    this.onresult?.({ resultIndex: index, results });
  }
  fail(error: string): void {
    this.onerror?.({ error });
    this.onend?.();
  }
}

class FakeUtterance {
  lang = '';
  voice: unknown = null;
  onstart: (() => void) | null = null;
  onend: (() => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  constructor(readonly text: string) {}
}

/** The speech synthesiser: utterances asked for, the one speaking, cancels. */
export class FakeSynthesis {
  spoken: FakeUtterance[] = [];
  current: FakeUtterance | undefined;
  cancels = 0;
  voices = [
    { lang: 'en-US', name: 'English', default: true, localService: true, voiceURI: 'en' },
    { lang: 'ja-JP', name: 'Japanese', default: false, localService: true, voiceURI: 'ja' },
  ];
  private waiting: FakeUtterance[] = [];
  speak(u: FakeUtterance): void {
    this.spoken.push(u);
    this.waiting.push(u);
    if (!this.current) this.begin();
  }
  private begin(): void {
    this.current = this.waiting.shift();
    const u = this.current;
    if (u) queueMicrotask(() => u.onstart?.());
  }
  /** The utterance being spoken ends. */
  finish(): void {
    const u = this.current;
    this.current = undefined;
    u?.onend?.();
    if (!this.current) this.begin();
  }
  cancel(): void {
    this.cancels += 1;
    const u = this.current;
    this.current = undefined;
    this.waiting = [];
    u?.onerror?.({ error: 'interrupted' });
  }
  getVoices(): unknown[] {
    return this.voices;
  }
  get texts(): string[] {
    return this.spoken.map((u) => u.text);
  }
}

const saved = new Map<string, PropertyDescriptor | undefined>();
function replace(name: string, value: unknown): void {
  if (!saved.has(name)) saved.set(name, Object.getOwnPropertyDescriptor(window, name));
  Object.defineProperty(window, name, { value, configurable: true, writable: true });
}

/** Puts the stand-ins in place of the browser's interfaces; `restoreSpeech` puts the browser's back. */
export function installSpeech(options: { recognition?: boolean } = {}): FakeSynthesis {
  FakeRecognition.made = [];
  const synthesis = new FakeSynthesis();
  replace('speechSynthesis', synthesis);
  replace('SpeechSynthesisUtterance', FakeUtterance);
  replace('SpeechRecognition', options.recognition === false ? undefined : FakeRecognition);
  replace('webkitSpeechRecognition', undefined);
  return synthesis;
}

export function restoreSpeech(): void {
  for (const [name, descriptor] of saved) {
    if (descriptor) Object.defineProperty(window, name, descriptor);
    else delete (window as unknown as Record<string, unknown>)[name];
  }
  saved.clear();
}
