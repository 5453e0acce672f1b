/**
 * All 652 examples of the CommonMark 0.31.2 spec (the `commonmark-spec` package), rendered through
 * `<pagent-chat>` as streamed deltas in three chunkings — the whole text in one delta, one character per
 * delta, random pieces of 1–12 characters — and through the markdown stream one character per append.
 *
 * Every example must match the spec's HTML (normalised by the spec's own rules), except those listed below
 * as deliberate deviations, which must match the reference output under that deviation instead, and all
 * chunkings must give the same DOM.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEntities } from '../../../src/chat/markdown/entities.js';
import { seededRandom } from '../../helpers/random.js';
import { normalizeHtml } from '../../helpers/html-normalize.js';
import {
  deviationsOf, referenceWithDeviations, renderThroughElement, renderThroughStream, specExamples, type SpecExample,
} from './markdown-conformance.js';

/**
 * Examples where GFM's extended autolinks (which we render, as GitHub does) link a bare URL or email
 * address that CommonMark core leaves as text. The expected HTML is the GFM autolink extension's.
 */
const GFM_AUTOLINKS: Record<number, string> = {
  602: '<p>&lt;<a href="https://foo.bar/baz">https://foo.bar/baz</a> bim&gt;</p>',
  606: '<p>&lt;<a href="mailto:foo+@bar.example.com">foo+@bar.example.com</a>&gt;</p>',
  608: '<p>&lt; <a href="https://foo.bar">https://foo.bar</a> &gt;</p>',
  611: '<p><a href="https://example.com">https://example.com</a></p>',
  612: '<p><a href="mailto:foo@bar.example.com">foo@bar.example.com</a></p>',
};

/** Cuts text into pieces of 1..max code points (seeded), as a stream of deltas would arrive. */
function randomChunks(text: string, max: number, seed: number): string[] {
  const next = seededRandom(seed);
  const chars = [...text];
  const out: string[] = [];
  for (let at = 0; at < chars.length; ) {
    const size = 1 + Math.floor(next() * max);
    out.push(chars.slice(at, at + size).join(''));
    at += size;
  }
  return out;
}

const examples = specExamples();
const tally = { strict: 0, rawHtml: 0, refusedUrl: 0, gfmAutolink: 0 };

beforeAll(async () => {
  // named references beyond the built-in ones come from the lazily loaded table
  await loadEntities();
});

describe('CommonMark 0.31.2 spec examples', () => {
  it('has all 652 examples', () => {
    expect(examples).toHaveLength(652);
  });

  it.each(examples.map((e) => [e.number, e.section, e] as const))('example %i (%s)', async (number, _section, example: SpecExample) => {
    const text = example.markdown;
    const whole = await renderThroughElement([text]);
    expect(await renderThroughElement([...text]), 'one character per delta').toBe(whole);
    expect(await renderThroughElement(randomChunks(text, 12, number)), 'random 1-12 character deltas').toBe(whole);
    expect(renderThroughStream([...text]), 'markdown stream, one character per append').toBe(whole);

    const got = normalizeHtml(whole);
    const gfm = GFM_AUTOLINKS[number];
    if (gfm !== undefined) {
      expect(got, 'GFM autolink').toBe(normalizeHtml(gfm));
      tally.gfmAutolink += 1;
      return;
    }
    const deviations = deviationsOf(text);
    if (!deviations.rawHtml && !deviations.refusedUrl) {
      expect(got).toBe(normalizeHtml(example.html));
      tally.strict += 1;
      return;
    }
    // Raw HTML shown as text, or a refused URL shown as text: the reference output under that deviation.
    const strict = got === normalizeHtml(example.html);
    if (strict) tally.strict += 1;
    else if (deviations.rawHtml) tally.rawHtml += 1;
    else tally.refusedUrl += 1;
    if (!strict) expect(got, 'with its deviation').toBe(normalizeHtml(referenceWithDeviations(text)));
  });

  it('reports the conformance counts', () => {
    const deviated = tally.rawHtml + tally.refusedUrl + tally.gfmAutolink;
    console.info(
      `CommonMark 0.31.2: ${tally.strict}/652 match the spec; ${tally.strict + deviated}/652 with the deliberate deviations ` +
        `(raw HTML as text ${tally.rawHtml}, refused URL schemes as text ${tally.refusedUrl}, GFM autolinks ${tally.gfmAutolink})`,
    );
    expect(tally.strict + deviated).toBe(652);
    expect(tally.strict).toBeGreaterThanOrEqual(570);
  });
});
