/**
 * The element's boxes under the page's CSS and viewports: a page that makes it `display: block`, the
 * empty state's suggestions on a wide screen, the wire log's drawer as lines arrive, a long table.
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

  it('lays a table past 100 rows out as a head and bodies of their own with fixed column widths that line up, scrolling sideways at 375 px', async () => {
    const rows = Array.from({ length: 250 }, (_, i) => `| row ${i} | ${i * 7} | ${i % 50 === 0 ? 'a longer note that wraps in its column, '.repeat(3) : 'note'} |\n`);
    for (const width of [1280, 375]) {
      await page.viewport(width, 800);
      const el = await chatFixture((c) => (c.style.height = '700px'));
      await pushAll(el, textRun('q', ['| name | value | note |\n|---|--:|---|\n', ...rows]));
      const table = $<HTMLTableElement>(el, '[part~="answer-text"] table')!;
      const sections = [table.tHead!, ...table.tBodies];
      expect(sections).toHaveLength(4);
      // each section is a table box of its own, laid out from the widths of its first row
      for (const s of sections) {
        expect(getComputedStyle(s).display).toBe('table');
        expect(getComputedStyle(s).tableLayout).toBe('fixed');
      }
      expect(sections.slice(1).map((s) => getComputedStyle(s).contentVisibility)).toEqual(['auto', 'auto', 'auto']);
      // the columns line up in the head and in the first and last rows of every body
      const edges = (tr: HTMLTableRowElement): number[] => [...tr.cells].map((c) => Math.round(c.getBoundingClientRect().left));
      const head = edges(table.tHead!.rows[0]!);
      expect(new Set(head).size).toBe(3);
      for (const body of table.tBodies) {
        body.scrollIntoView();
        expect(edges(body.rows[0]!)).toEqual(head);
        expect(edges(body.rows[body.rows.length - 1]!)).toEqual(head);
      }
      const box = table.getBoundingClientRect();
      const answer = $(el, '[part~="answer-text"]')!.getBoundingClientRect();
      expect(box.right).toBeLessThanOrEqual(answer.right + 0.5);
      if (width === 375) expect(table.scrollWidth).toBeGreaterThan(table.clientWidth);
      else expect(table.scrollWidth).toBe(table.clientWidth);
      el.remove();
    }
  });
});
