/** A numbered page, or a gap standing for the pages left out between two numbers. */
type PageSlot = number | 'gap';

/**
 * The page numbers to show: always the first and the last, and `radius` pages either side of the current one.
 * A gap that would hide a single page shows that page instead, so '…' always stands for two pages or more.
 */
export function pageWindow(page: number, pages: number, radius = 1): PageSlot[] {
  const last = Math.max(1, pages);
  const current = Math.min(Math.max(1, page), last);
  const shown = new Set<number>([1, last]);
  for (let p = current - radius; p <= current + radius; p++) if (p >= 1 && p <= last) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const slots: PageSlot[] = [];
  let previous = 0;
  for (const p of sorted) {
    if (p - previous === 2) slots.push(p - 1);
    else if (p - previous > 2) slots.push('gap');
    slots.push(p);
    previous = p;
  }
  return slots;
}

/** docs/PRODUCT.md, Constants: the page count defaults to 1 when the server gives none. */
export function pageCount(pages: number | null | undefined): number {
  return typeof pages === 'number' && Number.isFinite(pages) && pages >= 1 ? Math.floor(pages) : 1;
}
