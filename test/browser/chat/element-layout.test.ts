/**
 * The element's boxes under the page's CSS and viewports: a page that makes it `display: block`, the
 * empty state's suggestions on a wide screen, the wire log's drawer as lines arrive.
 */
import { fixture, html } from '@open-wc/testing';
import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import type { PagentChat } from '../../../src/chat/element.js';
import { $, $$, chatFixture, pushAll, textRun, until } from './helpers.js';

describe('<pagent-chat> layout', () => {
  it('keeps its timeline scrolling inside it when the page makes it display: block', async () => {
    const el = await fixture<PagentChat>(html`<pagent-chat style="display: block; height: 600px"></pagent-chat>`);
    el.frameBatching = false;
    await el.updateComplete;
    for (let i = 0; i < 20; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}\n\nwith a second paragraph`]));
    const box = el.getBoundingClientRect();
    const timeline = $(el, '[part="timeline"]')!;
    const composer = $(el, '[part="composer"]')!;
    expect(box.height).toBe(600);
    // the timeline scrolls inside the element; the composer stays within its box
    expect(timeline.scrollHeight).toBeGreaterThan(timeline.clientHeight);
    expect(timeline.getBoundingClientRect().bottom).toBeLessThanOrEqual(box.bottom);
    expect(composer.getBoundingClientRect().bottom).toBeLessThanOrEqual(box.bottom + 0.5);
    expect(composer.getBoundingClientRect().top).toBeGreaterThan(box.top);
  });

  it('shows the four suggestions of the empty state on one line at 1,280 px', async () => {
    await page.viewport(1280, 800);
    const el = await fixture<PagentChat>(html`<pagent-chat style="height: 600px">
      ${['Weather in Tokyo', 'Show reasoning', 'Tool that needs approval', 'Show an error'].map(
        (label) => html`<button slot="suggestions" type="button">${label}</button>`,
      )}
    </pagent-chat>`);
    await el.updateComplete;
    const chips = [...el.querySelectorAll('button')];
    const tops = new Set(chips.map((c) => Math.round(c.getBoundingClientRect().top)));
    expect(tops.size).toBe(1);
  });

  it('opens the wire log at its newest line and follows new lines until the reader scrolls up', async () => {
    const el = await chatFixture((c) => {
      c.wireLog = true;
      c.style.height = '600px';
    });
    for (let i = 0; i < 10; i++) await pushAll(el, textRun(`question ${i}`, [`answer ${i}`]));
    const summary = $(el, '[part="wire-log"] summary')!;
    summary.click();
    await until(() => $(el, '.wire-lines') !== null, 'the drawer to open');
    const list = $(el, '.wire-lines')!;
    const gap = (): number => list.scrollHeight - list.scrollTop - list.clientHeight;
    expect(list.scrollHeight).toBeGreaterThan(list.clientHeight * 2);
    await until(() => gap() <= 1, 'the drawer to show its newest line');
    // new lines: still at the newest
    await pushAll(el, textRun('one more', ['and its answer']));
    await until(() => gap() <= 1, 'the drawer to follow new lines');
    // scrolled up: new lines leave the view where the reader put it
    list.scrollTop = 0;
    await until(() => list.scrollTop === 0 && gap() > 1, 'the scroll to land');
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await pushAll(el, textRun('another', ['and another answer']));
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    expect(list.scrollTop).toBe(0);
    expect($$(el, '.wire-line').length).toBeGreaterThan(40);
  });
});
