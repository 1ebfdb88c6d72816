// The writings page's search box (docs/site.md#search): shown once script runs (the markup hides it, so a
// reader without script has the full list alone), and nothing more until the visitor first focuses or
// types in it: then it imports the search (site/scripts/search.ts, with MiniSearch), which fetches the index.
type Search = typeof import('./search.ts');

const box = document.querySelector<HTMLElement>('[data-writing-search]');
const input = box?.querySelector<HTMLInputElement>('input[type="search"]');
if (box && input && box.dataset.module) {
  const module = box.dataset.module;
  box.hidden = false;
  const start = (): void => {
    input.removeEventListener('focus', start);
    input.removeEventListener('input', start);
    (import(module) as Promise<Search>)
      .then((search) => search.startSearch(box, input))
      .catch(() => {
        const status = box.querySelector('[data-search-status]');
        if (status) status.textContent = 'Search is unavailable: the list below holds every writing.';
      });
  };
  input.addEventListener('focus', start);
  input.addEventListener('input', start);
}
