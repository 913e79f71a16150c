import { useEffect, useState } from 'preact/hooks';

/** The console's pages, by path under /console/ (deep links answer the same shell). */
export const PAGES = [
  { path: '', title: 'Decisions' },
  { path: 'gate', title: 'Tool gate' },
  { path: 'team', title: 'Team gate' },
  { path: 'runs', title: 'Harnesses and runs' },
  { path: 'keys', title: 'Keys and budgets' },
] as const;
export type PagePath = (typeof PAGES)[number]['path'];

const BASE = '/console/';

function currentPage(): PagePath {
  const rest = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '';
  const first = rest.split('/')[0] ?? '';
  return PAGES.find((page) => page.path === first)?.path ?? '';
}

export function navigate(path: PagePath): void {
  history.pushState(null, '', BASE + path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function hrefOf(path: PagePath): string {
  return BASE + path;
}

export function usePage(): PagePath {
  const [page, setPage] = useState(currentPage);
  useEffect(() => {
    const update = () => setPage(currentPage());
    addEventListener('popstate', update);
    return () => removeEventListener('popstate', update);
  }, []);
  return page;
}
