/**
 * Read aloud: a button under every finished answer speaks it with the browser's `speechSynthesis` (a voice
 * of the element's language), and with `read-aloud` set, answers are spoken as they stream, one finished
 * sentence at a time (./sentences.ts). The block holding the sentence being spoken carries
 * `part="speaking"`, and each sentence is announced to screen readers once, when it starts. Stop (the
 * button, or the composer's Stop), a new message, another conversation or the element leaving the page
 * stop the speech.
 */
import type { ReactiveController } from 'lit';
import type { ChatHost } from '../chat-host.js';
import { featureStrings } from '../feature-strings.js';
import type { AnswerItem, TimelineItem } from '../timeline/items.js';
import { SentenceReader } from './sentences.js';
import { readAloudDefaults } from './strings.js';
import { adoptStyles } from './styles.js';

/** An answer read as its text arrives: its reader, and how many chunks of its text were fed to it. */
interface Feeding {
  key: string;
  reader: SentenceReader;
  /** The text grows by whole chunks: the ones already fed. */
  chunks: number;
}

/** The sentence being spoken, and the block of its answer marked `speaking`. */
interface Speaking {
  key: string;
  text: string;
  marked?: Element | undefined;
}

const synth = (): SpeechSynthesis | undefined => (typeof speechSynthesis === 'undefined' ? undefined : speechSynthesis);

/** Text used to find a sentence in the rendered answer: letters and digits only. */
const bare = (text: string): string => text.replace(/[^\p{L}\p{N}]+/gu, '');

export class ReadAloud implements ReactiveController {
  private feeding: Feeding | undefined;
  private queue: Array<{ key: string; text: string }> = [];
  private speaking: Speaking | undefined;
  /** Answers already read (a stopped one is not picked up again while it streams on). */
  private followed = new Set<string>();

  constructor(private readonly host: ChatHost) {
    host.el.addController(this);
    adoptStyles(host.el.renderRoot);
    host.requestUpdate();
  }

  /** True where the browser can speak. */
  get available(): boolean {
    return synth() !== undefined && typeof SpeechSynthesisUtterance !== 'undefined';
  }

  /** The answer being read (spoken, waiting to be, or still arriving). */
  get readingKey(): string | undefined {
    return this.speaking?.key ?? this.queue[0]?.key ?? this.feeding?.key;
  }

  hostUpdated(): void {
    const items = this.host.timeline.items;
    const key = this.feeding?.key ?? this.speaking?.key;
    if (key !== undefined) {
      const at = lastIndexOf(items, key);
      const item = items[at];
      // another conversation, a new message after the answer, or the run stopped: speech stops
      if (item?.kind !== 'answer' || item.stopped || items.slice(at + 1).some((i) => i.kind === 'user')) this.stop();
      else if (this.feeding) this.feed(this.feeding, item);
      if (this.speaking?.marked && !this.speaking.marked.isConnected) this.mark(this.speaking);
    }
    if (this.host.el.readAloud && this.available) this.follow(items);
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Starts reading the newest answer while it streams. */
  private follow(items: readonly TimelineItem[]): void {
    for (let i = items.length - 1; i >= 0; i--) {
      const item = items[i]!;
      if (item.kind === 'user') return;
      if (item.kind !== 'answer') continue;
      if (!item.streaming || item.stopped || this.followed.has(item.key) || this.feeding) return;
      this.followed.add(item.key);
      this.feed((this.feeding = { key: item.key, reader: new SentenceReader(), chunks: 0 }), item);
      return;
    }
  }

  /** Feeds the reader what the answer got since the last look; queues the finished sentences. */
  private feed(feeding: Feeding, item: AnswerItem): void {
    const chunks = item.text.chunks;
    const add = (sentences: string[]): void => void this.queue.push(...sentences.map((text) => ({ key: feeding.key, text })));
    for (; feeding.chunks < chunks.length; feeding.chunks++) add(feeding.reader.push(chunks[feeding.chunks]!));
    if (!item.streaming) {
      add(feeding.reader.end());
      this.feeding = undefined;
    }
    this.next();
  }

  /** Speaks the next sentence when nothing is being spoken. */
  private next(): void {
    const speech = synth();
    if (!speech || this.speaking) return;
    const sentence = this.queue.shift();
    if (!sentence) return this.bump();
    const speaking: Speaking = { ...sentence };
    this.speaking = speaking;
    const utterance = new SpeechSynthesisUtterance(sentence.text);
    const lang = this.lang();
    utterance.lang = lang;
    const voice = pickVoice(speech.getVoices(), lang);
    if (voice) utterance.voice = voice;
    utterance.onstart = () => {
      if (this.speaking !== speaking) return;
      this.mark(speaking);
      this.host.announce(sentence.text);
      this.bump();
    };
    const done = (): void => {
      if (this.speaking !== speaking) return;
      this.unmark(speaking);
      this.speaking = undefined;
      this.next();
    };
    utterance.onend = done;
    utterance.onerror = done;
    speech.speak(utterance);
  }

  /** The element's language as a BCP 47 tag (its own `lang`, else the nearest ancestor's, else its strings'). */
  private lang(): string {
    return this.host.el.closest('[lang]')?.getAttribute('lang') || this.host.locale();
  }

  /** Puts `part="speaking"` on the block of the answer holding the sentence being spoken. */
  private mark(speaking: Speaking): void {
    this.unmark(speaking);
    const answer = this.host.el.renderRoot.querySelector(`[data-key="${speaking.key}"] [part~="answer-text"]`);
    if (!answer) return;
    const probe = bare(speaking.text).slice(0, 24);
    const blocks = [...answer.querySelectorAll('p, li, h1, h2, h3, h4, h5, h6, td, th, dd, dt')];
    const block = blocks.find((b) => !b.querySelector('p, li') && bare(b.textContent ?? '').includes(probe)) ?? (blocks.length === 0 ? answer : undefined);
    if (!block) return;
    block.part.add('speaking');
    speaking.marked = block;
  }

  private unmark(speaking: Speaking): void {
    speaking.marked?.part.remove('speaking');
    speaking.marked = undefined;
  }

  /** Stops speaking, and reading the answer that was being read. */
  stop(): void {
    const speaking = this.speaking;
    const was = this.readingKey;
    this.feeding = undefined;
    this.queue = [];
    this.speaking = undefined;
    if (speaking) this.unmark(speaking);
    if (was === undefined) return;
    synth()?.cancel();
    this.bump();
  }

  /** Speaks the whole answer `item` (stopping whatever was being read). */
  speak(item: AnswerItem): void {
    this.stop();
    this.followed.add(item.key);
    this.feed((this.feeding = { key: item.key, reader: new SentenceReader(), chunks: 0 }), item);
    this.bump();
  }

  /** Bumped at every change of what is read, so the element makes a new row context (and rows re-render). */
  stamp = 0;

  private bump(): void {
    this.stamp += 1;
    this.host.requestUpdate();
  }

  /** The read-aloud button under a finished answer (nothing where the browser cannot speak). */
  render(item: AnswerItem): unknown {
    const { html, nothing } = this.host.lit;
    if (!this.available || item.streaming) return nothing;
    const s = featureStrings(readAloudDefaults, this.host.locale(), this.host.strings());
    const on = this.readingKey === item.key;
    return html`<button part="read-aloud-button" type="button" aria-pressed=${on ? 'true' : 'false'}
      @click=${() => (on ? this.stop() : this.speak(item))}>${on ? s.stopReading : s.readAloud}</button>`;
  }
}

function lastIndexOf(items: readonly TimelineItem[], key: string): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i]!.key === key) return i;
  return -1;
}

/** The voice for `lang`: one of exactly that tag, else of its language, the browser's default first. */
export function pickVoice(voices: readonly SpeechSynthesisVoice[], lang: string): SpeechSynthesisVoice | undefined {
  const tag = lang.toLowerCase().replace('_', '-');
  const base = tag.split('-')[0]!;
  const norm = (v: SpeechSynthesisVoice): string => v.lang.toLowerCase().replace('_', '-');
  const rank = (v: SpeechSynthesisVoice): number => (norm(v) === tag ? 0 : norm(v).split('-')[0] === base ? 1 : 2) * 2 + (v.default ? 0 : 1);
  const fitting = voices.filter((v) => rank(v) < 4);
  return fitting.sort((a, b) => rank(a) - rank(b))[0];
}
