/**
 * The search field: a combobox over the prebuilt index (loaded on the first keystroke, no server), its
 * results a listbox of sections. ArrowDown / ArrowUp walk the results, Enter opens one, Escape closes them.
 */
import { searchEntries } from './search-match.js';
import type { SearchEntry } from '../tools/search-index.js';

export function mountSearch(host: HTMLElement, resolve: (url: string) => string): void {
  const input = document.createElement('input');
  input.type = 'search';
  input.placeholder = 'Search the docs';
  input.setAttribute('aria-label', 'Search the docs');
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-controls', 'search-results');
  input.setAttribute('aria-expanded', 'false');
  const list = document.createElement('ul');
  list.id = 'search-results';
  list.setAttribute('role', 'listbox');
  list.hidden = true;
  host.append(input, list);

  let index: Promise<SearchEntry[]> | undefined;
  let results: SearchEntry[] = [];
  let active = -1;
  const href = (e: SearchEntry): string => resolve(e.url) + (e.anchor ? `#${e.anchor}` : '');

  const show = (): void => {
    list.replaceChildren(
      ...results.map((e, i) => {
        const li = document.createElement('li');
        li.id = `search-result-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(i === active));
        const a = document.createElement('a');
        a.href = href(e);
        a.tabIndex = -1;
        const heading = document.createElement('strong');
        heading.textContent = e.heading;
        const where = document.createElement('span');
        where.textContent = e.heading === e.page ? '' : ` — ${e.page}`;
        a.append(heading, where);
        li.append(a);
        return li;
      }),
    );
    if (input.value.trim() && results.length === 0) {
      const li = document.createElement('li');
      li.className = 'none';
      li.textContent = 'Nothing found';
      list.append(li);
    }
    list.hidden = input.value.trim() === '';
    input.setAttribute('aria-expanded', String(!list.hidden));
    if (active >= 0) input.setAttribute('aria-activedescendant', `search-result-${active}`);
    else input.removeAttribute('aria-activedescendant');
  };

  input.addEventListener('input', async () => {
    index ??= import('virtual:docs/search').then((m) => m.default);
    const query = input.value;
    const found = searchEntries(await index, query);
    if (input.value !== query) return; // a newer keystroke won
    results = found;
    active = -1;
    show();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (results.length === 0) return;
      e.preventDefault();
      active = (active + (e.key === 'ArrowDown' ? 1 : results.length - 1 + (active < 0 ? 1 : 0))) % results.length;
      show();
    } else if (e.key === 'Enter') {
      const chosen = results[active < 0 ? 0 : active];
      if (chosen) location.href = href(chosen);
    } else if (e.key === 'Escape') {
      input.value = '';
      results = [];
      show();
    }
  });
}
