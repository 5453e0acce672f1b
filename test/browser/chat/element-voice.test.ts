// Dictation and read aloud in Chromium, with the Web Speech interfaces replaced by scripted stand-ins:
// interim and final text in the box, errors in the user's language, Escape; a streamed answer spoken
// sentence by sentence, once each, never its code, the `speaking` part moving along, and speech stopped
// by Stop and by a new message.
import { expect as chaiExpect } from '@open-wc/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PagentChat } from '../../../src/chat/element.js';
import { $, $$, END, chatFixture, until } from './helpers.js';
import { FakeRecognition, installSpeech, restoreSpeech, type FakeSynthesis } from './speech-stand-ins.js';

let synthesis: FakeSynthesis;
beforeEach(() => {
  synthesis = installSpeech();
});
afterEach(() => restoreSpeech());

const box = (el: PagentChat): HTMLTextAreaElement => $<HTMLTextAreaElement>(el, 'textarea[name="message"]')!;
const mic = (el: PagentChat): HTMLButtonElement | null => $<HTMLButtonElement>(el, '[part~="dictation-button"]');

async function voiced(lang?: string): Promise<PagentChat> {
  const el = await chatFixture((c) => {
    if (lang) c.setAttribute('lang', lang);
    c.voice = true;
  });
  await until(() => mic(el) !== null, 'the microphone button');
  return el;
}

describe('<pagent-chat voice>', () => {
  it('shows interim text in the box as it is recognised and keeps the final text after what was typed', async () => {
    const el = await voiced();
    box(el).value = 'Note:';
    mic(el)!.click();
    const r = FakeRecognition.made[0]!;
    expect(r.started && r.continuous && r.interimResults).toBe(true);
    expect(r.lang).toBe('en');
    await el.updateComplete;
    expect(mic(el)!.getAttribute('aria-pressed')).toBe('true');
    expect(mic(el)!.getAttribute('aria-label')).toBe('Stop dictation');
    expect($(el, '[part~="dictation-status"]')!.textContent).toBe('Listening…');
    r.say(0, 'buy', false);
    expect(box(el).value).toBe('Note: buy');
    r.say(0, 'buy milk', true);
    r.say(1, ' and', false);
    expect(box(el).value).toBe('Note: buy milk and');
    r.say(1, ' and bread', true);
    expect(box(el).value).toBe('Note: buy milk and bread');
    await chaiExpect(el).to.be.accessible();
    // a second press stops; the text stays for the user to edit or send
    mic(el)!.click();
    expect(r.stopped).toBe(true);
    await until(() => mic(el)!.getAttribute('aria-pressed') === 'false', 'dictation to stop');
    expect(box(el).value).toBe('Note: buy milk and bread');
    expect($(el, '[part~="dictation-status"]')).toBeNull();
  });

  it('stops on Escape, and follows lang (zh-CN) with no space before CJK text', async () => {
    const el = await voiced('zh-CN');
    expect(mic(el)!.getAttribute('aria-label')).toBe('语音输入');
    box(el).value = '提醒';
    mic(el)!.click();
    const r = FakeRecognition.made[0]!;
    expect(r.lang).toBe('zh-CN');
    r.say(0, '买牛奶', true);
    expect(box(el).value).toBe('提醒买牛奶');
    box(el).dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    expect(r.stopped).toBe(true);
    await until(() => mic(el)!.getAttribute('aria-pressed') === 'false', 'dictation to stop');
  });

  it('says why it stopped, in the user’s language: refused microphone, no speech', async () => {
    const el = await voiced('ja');
    mic(el)!.click();
    FakeRecognition.made[0]!.fail('not-allowed');
    await until(() => $(el, '[part~="dictation-error"]') !== null, 'the error');
    expect($(el, '[part~="dictation-error"]')!.textContent).toBe('マイクへのアクセスが拒否されました。ブラウザで許可すると音声入力できます。');
    expect($(el, '[part~="dictation-error"]')!.getAttribute('role')).toBe('alert');
    mic(el)!.click();
    await until(() => $(el, '[part~="dictation-error"]') === null, 'the error to go when dictation starts again');
    FakeRecognition.made[1]!.fail('no-speech');
    await until(() => $(el, '[part~="dictation-error"]')?.textContent === '音声が聞き取れませんでした。もう一度お試しください。', 'the no-speech message');
  });

  it('has no button where the browser has no recogniser, unless the page gives transcribe', async () => {
    restoreSpeech();
    installSpeech({ recognition: false });
    const el = await chatFixture((c) => (c.voice = true));
    await import('../../../src/chat/dictation/lazy.js');
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
    await el.updateComplete;
    expect(mic(el)).toBeNull();
    const audio: Blob[] = [];
    el.transcribe = async (blob) => {
      audio.push(blob);
      return 'from the server';
    };
    await until(() => mic(el) !== null, 'the microphone button with transcribe');
  });

  it('a message sent while listening drops what is still heard', async () => {
    const el = await voiced();
    mic(el)!.click();
    const r = FakeRecognition.made[0]!;
    r.say(0, 'hello', true);
    el.addEventListener('pagent-send', (e) => e.preventDefault());
    el.send(box(el).value);
    expect(r.aborted).toBe(true);
    box(el).value = '';
    r.say(1, 'late words', true);
    expect(box(el).value).toBe('');
  });
});

/** Streams an answer in pieces, waiting for each render. */
async function stream(el: PagentChat, pieces: string[]): Promise<void> {
  for (const text of pieces) {
    el.push({ method: 'TextDelta', params: { text } });
    await el.updateComplete;
  }
}

/** Lets the stand-in speak everything queued, checking the speaking mark as it goes. */
async function speakAll(el: PagentChat, marks: string[]): Promise<void> {
  for (let i = 0; i < 50 && synthesis.current; i++) {
    await Promise.resolve();
    await el.updateComplete;
    const mark = $$(el, '[part~="speaking"]');
    marks.push(mark.length === 1 ? mark[0]!.tagName.toLowerCase() + ':' + mark[0]!.textContent!.slice(0, 12) : `${mark.length} marks`);
    synthesis.finish();
    await el.updateComplete;
  }
}

describe('<pagent-chat read-aloud>', () => {
  async function reading(): Promise<PagentChat> {
    const el = await chatFixture((c) => (c.readAloud = true));
    el.push({ method: 'RunBegin', params: { user_input: 'Weather?' } });
    el.push({ method: 'TurnBegin', params: { turn: 0 } });
    await until(() => (el as unknown as { readAloudPart?: unknown }).readAloudPart !== undefined, 'the read-aloud chunk');
    return el;
  }

  it('speaks a streamed answer sentence by sentence, once each, in order, never the code; the speaking mark moves', async () => {
    const el = await reading();
    const announced: string[] = [];
    await stream(el, ['It is sun', 'ny. Take a']);
    expect(synthesis.texts).toEqual(['It is sunny.']);
    await stream(el, [' hat!\n\n```py\nprint("never. read.")\n```\n\n晴れです。', '傘は不要？ Bye.']);
    const status = $(el, '.sr-only[role="status"]')!;
    const observer = new MutationObserver(() => announced.push(status.textContent ?? ''));
    observer.observe(status, { childList: true, subtree: true, characterData: true });
    const marks: string[] = [];
    await speakAll(el, marks);
    el.push({ method: 'StepEnd', params: { ...END, content: 'x' } });
    el.push({ method: 'RunEnd', params: END });
    await el.updateComplete;
    await speakAll(el, marks);
    observer.disconnect();
    expect(synthesis.texts).toEqual(['It is sunny.', 'Take a hat!', '晴れです。', '傘は不要？', 'Bye.']);
    expect(synthesis.spoken.every((u) => u.lang === 'en')).toBe(true);
    // the mark sits on the paragraph being spoken: the first (two sentences), then the one after the code (three)
    expect(marks).toEqual(['p:It is sunny.', 'p:It is sunny.', 'p:晴れです。傘は不要？ B', 'p:晴れです。傘は不要？ B', 'p:晴れです。傘は不要？ B']);
    expect(announced.filter((a) => a !== 'Answer finished')).toEqual(['Take a hat!', '晴れです。', '傘は不要？', 'Bye.']);
    expect($$(el, '[part~="speaking"]')).toEqual([]);
    // each sentence announced once, none twice
    expect(new Set(announced.filter((a) => synthesis.texts.includes(a))).size).toBe(announced.filter((a) => synthesis.texts.includes(a)).length);
  });

  it('Stop stops the speech and nothing more of the answer is spoken', async () => {
    const el = await reading();
    await stream(el, ['One. Two. Three', '. Four']);
    expect(synthesis.texts).toEqual(['One.']);
    el.stop();
    await until(() => !el.streaming, 'the run to stop');
    await el.updateComplete;
    expect(synthesis.cancels).toBeGreaterThan(0);
    synthesis.finish();
    await el.updateComplete;
    expect(synthesis.texts).toEqual(['One.']);
  });

  it('a new message stops the speech of the answer before it', async () => {
    const el = await reading();
    await stream(el, ['First. Second. Third. ']);
    el.push({ method: 'StepEnd', params: { ...END, content: 'x' } });
    el.push({ method: 'RunEnd', params: END });
    await el.updateComplete;
    expect(synthesis.texts).toEqual(['First.']);
    // no source: the message shows (and fails), which is all this needs
    el.send('Next question');
    await el.updateComplete;
    expect(synthesis.cancels).toBeGreaterThan(0);
    synthesis.finish();
    await el.updateComplete;
    expect(synthesis.texts).toEqual(['First.']);
  });

  it('the Read aloud button speaks a finished answer with a voice of the element’s language, and stops it', async () => {
    const el = await chatFixture((c) => c.setAttribute('lang', 'ja'));
    el.push({ method: 'RunBegin', params: { user_input: '天気' } });
    el.push({ method: 'StepEnd', params: { ...END, content: '晴れです。`code` もあります。\n\n```\nskip()\n```' } });
    el.push({ method: 'RunEnd', params: END });
    await until(() => $(el, '[part~="read-aloud-button"]') !== null, 'the read-aloud button');
    const button = $<HTMLButtonElement>(el, '[part~="read-aloud-button"]')!;
    expect(button.textContent!.trim()).toBe('読み上げ');
    expect(synthesis.texts).toEqual([]);
    button.click();
    await el.updateComplete;
    expect(synthesis.texts).toEqual(['晴れです。']);
    expect((synthesis.spoken[0]!.voice as { lang: string }).lang).toBe('ja-JP');
    const pressed = $<HTMLButtonElement>(el, '[part~="read-aloud-button"]')!;
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(pressed.textContent!.trim()).toBe('読み上げを停止');
    await chaiExpect(el).to.be.accessible();
    pressed.click();
    await el.updateComplete;
    expect(synthesis.cancels).toBe(1);
    synthesis.finish();
    expect(synthesis.texts).toEqual(['晴れです。']);
    expect($(el, '[part~="read-aloud-button"]')!.getAttribute('aria-pressed')).toBe('false');
  });
});
