import { describe, expect, it } from 'vitest';
import { createSlugger } from '../../../docs/site/slug.js';
import { searchEntries } from '../../../docs/site/search-match.js';
import { pageEntries, plainText } from '../../../docs/tools/search-index.js';

describe('heading anchors', () => {
  it('are made as GitHub makes them: lower case, punctuation dropped, repeats numbered', () => {
    const slug = createSlugger();
    expect(slug('Runs and the termination contract')).toBe('runs-and-the-termination-contract');
    expect(slug('`<pagent-chat>` reference')).toBe('pagent-chat-reference');
    expect(slug('AG-UI')).toBe('ag-ui');
    expect(slug('stream()')).toBe('stream');
    expect(slug('stream()')).toBe('stream-1');
    expect(slug('stream()')).toBe('stream-2');
    expect(slug('東京の天気')).toBe('東京の天気');
  });
});

describe('the search index', () => {
  const page = [
    '# The page',
    'Intro text with `code`.',
    '## Bad input',
    'A line **without** a [required](x.md) field.',
    '```ts',
    '## not a heading',
    '```',
    '## Bad input',
    'Again.',
    '#### A small heading',
    'Under it.',
  ].join('\n');

  it('has a section per heading up to level 3, with the anchor the page gives it, code left out', () => {
    expect(pageEntries('p.html', 'The page', page)).toEqual([
      { url: 'p.html', page: 'The page', heading: 'The page', anchor: '', text: 'Intro text with code.' },
      { url: 'p.html', page: 'The page', heading: 'Bad input', anchor: 'bad-input', text: 'A line without a required field.' },
      { url: 'p.html', page: 'The page', heading: 'Bad input', anchor: 'bad-input-1', text: 'Again. A small heading Under it.' },
    ]);
  });

  it('reads inline Markdown and the table rows TypeDoc writes as plain text', () => {
    expect(plainText('| <a id="property-llm"></a> `llm` | `readonly` | [`AgentModel`](#agentmodel) |')).toBe('llm readonly AgentModel');
  });

  it('finds sections holding every word, heading hits first, in the order of the contents on a tie', () => {
    const entries = [
      { url: 'a.html', page: 'A', heading: 'Intro', anchor: '', text: 'TurnEnd without stopped is rejected' },
      { url: 'b.html', page: 'B', heading: 'TurnEnd', anchor: 'turnend', text: 'stopped: required' },
      { url: 'c.html', page: 'C', heading: 'TurnEnd', anchor: 'turnend', text: 'TurnEnd stopped' },
      { url: 'd.html', page: 'D', heading: 'RunEnd', anchor: 'runend', text: 'no match for the second word' },
    ];
    expect(searchEntries(entries, 'turnend STOPPED').map((e) => e.url)).toEqual(['b.html', 'c.html', 'a.html']);
    expect(searchEntries(entries, '  ')).toEqual([]);
    expect(searchEntries(entries, 'stopped', 1).map((e) => e.url)).toEqual(['a.html']);
  });
});
