import type { MouseEvent } from 'react';
import { CPagination, CPaginationItem } from '@coreui/react';
import { pageWindow } from './page-window';

interface ListPaginationProps {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  /** What the pages hold, for the navigation's label: 'Trades pages'. */
  label: string;
}

/**
 * docs/PRODUCT.md, Trade list and Account list: Prev, numbered pages and Next; Prev is disabled on page 1 and Next on
 * the last page.
 */
export function ListPagination({ page, pages, onChange, label }: ListPaginationProps) {
  const go = (target: number) => (event: MouseEvent) => {
    event.preventDefault();
    // CoreUI lets a click through on a disabled item (only CSS stops the pointer), so check again here.
    if (target >= 1 && target <= pages && target !== page) onChange(target);
  };
  const edge = (text: string, target: number, disabled: boolean) => (
    <CPaginationItem
      disabled={disabled}
      {...(disabled ? {} : { href: `?page=${target}` })}
      aria-label={text === 'Prev' ? 'Previous page' : 'Next page'}
      onClick={go(target)}
    >
      {text}
    </CPaginationItem>
  );
  return (
    <CPagination aria-label={label} className="mb-0 list-pagination">
      {edge('Prev', page - 1, page <= 1)}
      {pageWindow(page, pages).map((slot, index) =>
        slot === 'gap' ? (
          <CPaginationItem key={`gap-${index}`} as="span" className="page-gap">
            …
          </CPaginationItem>
        ) : slot === page ? (
          // CoreUI renders the current page as a plain span marked aria-current.
          <CPaginationItem key={slot} active>
            {slot}
          </CPaginationItem>
        ) : (
          <CPaginationItem key={slot} href={`?page=${slot}`} aria-label={`Page ${slot}`} onClick={go(slot)}>
            {slot}
          </CPaginationItem>
        ),
      )}
      {edge('Next', page + 1, page >= pages)}
    </CPagination>
  );
}
