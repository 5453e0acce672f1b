/**
 * Dictation: a microphone button in the composer. With the page's `transcribe`, it records with
 * `MediaRecorder` and puts the text `transcribe(audio)` resolves with into the message box; else it uses
 * the browser's `SpeechRecognition` (or `webkitSpeechRecognition`) in the element's language, showing the
 * interim text in the box as it is recognised and keeping the final text for the user to edit or send.
 * Escape or a second press stops; a refused microphone, silence or a failure says so in the user's
 * language. Without either, there is no button.
 */
import type { ReactiveController } from 'lit';
import type { ChatHost } from '../chat-host.js';
import { featureStrings } from '../feature-strings.js';
import { dictationDefaults } from './strings.js';
import { adoptStyles } from './styles.js';

/** The part of the Web Speech API's `SpeechRecognition` dictation uses. */
interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: { resultIndex: number; results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type ErrorKey = 'dictationDenied' | 'dictationNoSpeech' | 'dictationNoMicrophone' | 'dictationFailed';

/** The browser's recogniser class, if it has one. */
function recognizer(): (new () => Recognition) | undefined {
  const w = globalThis as { SpeechRecognition?: new () => Recognition; webkitSpeechRecognition?: new () => Recognition };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/** A recogniser's error, as the user reads it (`aborted`: we stopped it, nothing to say). */
function recognitionError(error: string): ErrorKey | undefined {
  if (error === 'not-allowed' || error === 'service-not-allowed') return 'dictationDenied';
  if (error === 'no-speech') return 'dictationNoSpeech';
  if (error === 'audio-capture') return 'dictationNoMicrophone';
  return error === 'aborted' ? undefined : 'dictationFailed';
}

/** A `getUserMedia` failure, as the user reads it. */
function microphoneError(err: unknown): ErrorKey {
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'dictationDenied';
  return name === 'NotFoundError' || name === 'OverconstrainedError' ? 'dictationNoMicrophone' : 'dictationFailed';
}

/** Text dictated after `before`: a space between words, none before CJK text or after a line break. */
function joined(before: string, text: string): string {
  if (before === '' || text === '' || /\s$/.test(before) || /^[\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return before + text;
  return `${before} ${text}`;
}

export class Dictation implements ReactiveController {
  state: 'idle' | 'listening' | 'transcribing' = 'idle';
  private error: ErrorKey | undefined;
  private recognition: Recognition | undefined;
  private recorder: MediaRecorder | undefined;
  /** The box's text when dictation started, and the final text recognised since. */
  private before = '';
  private final = '';

  constructor(private readonly host: ChatHost) {
    host.el.addController(this);
    adoptStyles(host.el.renderRoot);
    // a message sent while listening: what is still heard does not go into the next one
    host.el.addEventListener('pagent-send', () => this.stop(true));
    host.el.renderRoot.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).key !== 'Escape' || this.state !== 'listening') return;
      e.preventDefault();
      this.stop();
    });
    host.requestUpdate();
  }

  /** How dictation works here: the page's recogniser, the browser's, or not at all. */
  get mode(): 'transcribe' | 'recognition' | undefined {
    const el = this.host.el;
    if (!el.voice) return undefined;
    if (el.transcribe && typeof MediaRecorder !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function') return 'transcribe';
    return recognizer() ? 'recognition' : undefined;
  }

  hostDisconnected(): void {
    this.stop(true);
  }

  private box(): HTMLTextAreaElement | null {
    return this.host.el.renderRoot.querySelector<HTMLTextAreaElement>('textarea[name="message"]');
  }

  private set(state: Dictation['state'], error?: ErrorKey): void {
    this.state = state;
    this.error = error;
    this.host.requestUpdate();
  }

  /** The language recognised: the element's own `lang`, else the nearest ancestor's, else its strings'. */
  private lang(): string {
    return this.host.el.closest('[lang]')?.getAttribute('lang') || this.host.locale();
  }

  toggle(): void {
    if (this.state === 'listening') this.stop();
    else if (this.state === 'idle') void this.start();
  }

  private async start(): Promise<void> {
    const mode = this.mode;
    this.before = this.box()?.value ?? '';
    this.final = '';
    if (mode === 'recognition') return this.listen();
    if (mode === 'transcribe') return this.record();
  }

  private listen(): void {
    const Recognizer = recognizer()!;
    const r = new Recognizer();
    r.lang = this.lang();
    r.continuous = true;
    r.interimResults = true;
    r.onresult = (e) => {
      if (this.recognition !== r) return;
      let interim = '';
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const result = e.results[i]!;
        const text = result[0]?.transcript ?? '';
        if (result.isFinal) this.final += text;
        else interim += text;
      }
      this.write(this.final + interim);
    };
    r.onerror = (e) => {
      if (this.recognition !== r) return;
      this.recognition = undefined;
      this.write(this.final);
      this.set('idle', recognitionError(e.error));
    };
    r.onend = () => {
      if (this.recognition !== r) return;
      this.recognition = undefined;
      this.write(this.final);
      this.set('idle');
    };
    this.recognition = r;
    this.set('listening');
    try {
      r.start();
    } catch {
      this.recognition = undefined;
      this.set('idle', 'dictationFailed');
    }
  }

  private async record(): Promise<void> {
    this.set('listening');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      this.set('idle', microphoneError(err));
      return;
    }
    if (this.state !== 'listening') return stream.getTracks().forEach((t) => t.stop());
    const recorder = new MediaRecorder(stream);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    recorder.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      if (this.recorder !== recorder) return;
      this.recorder = undefined;
      void this.transcribe(new Blob(chunks, { type: recorder.mimeType || 'audio/webm' }));
    };
    this.recorder = recorder;
    recorder.start();
  }

  private async transcribe(audio: Blob): Promise<void> {
    const transcribe = this.host.el.transcribe;
    if (!transcribe) return this.set('idle');
    this.set('transcribing');
    try {
      const text = await transcribe(audio);
      if (typeof text !== 'string') throw new TypeError('transcribe did not resolve with a string');
      this.write(text.trim());
      this.set('idle');
    } catch {
      this.set('idle', 'dictationFailed');
    }
  }

  /** Puts the dictated text after what the box held when dictation started. */
  private write(text: string): void {
    const box = this.box();
    if (!box) return;
    box.value = joined(this.before, text);
    box.dispatchEvent(new Event('input', { bubbles: true }));
  }

  /** Stops listening; the text heard so far stays (`discard`: a message was sent, late results are dropped). */
  stop(discard = false): void {
    const r = this.recognition;
    if (r) {
      if (discard) {
        this.recognition = undefined;
        r.abort();
        this.set('idle');
      } else r.stop();
    }
    const recorder = this.recorder;
    if (recorder) {
      if (discard) this.recorder = undefined;
      if (recorder.state !== 'inactive') recorder.stop();
      if (discard) this.set('idle');
    } else if (this.state === 'listening' && !r) this.set('idle');
  }

  /** The microphone button and its status line (nothing where dictation is not available). */
  render(): unknown {
    const { html, nothing } = this.host.lit;
    if (!this.mode) return nothing;
    const s = featureStrings(dictationDefaults, this.host.locale(), this.host.strings());
    const on = this.state === 'listening';
    const status = on ? s.dictationListening : this.state === 'transcribing' ? s.dictationTranscribing : undefined;
    return html`<button part="dictation-button" type="button" class="secondary dictation" aria-pressed=${on ? 'true' : 'false'}
        aria-label=${on ? s.stopDictation : s.dictate} title=${on ? s.stopDictation : s.dictate}
        ?disabled=${this.state === 'transcribing'} @click=${() => this.toggle()}>🎤</button>
      ${status ? html`<p part="dictation-status" class="dictation-status" role="status">${status}</p>` : nothing}
      ${this.error ? html`<p part="dictation-status dictation-error" class="dictation-status" role="alert">${s[this.error]}</p>` : nothing}`;
  }
}
