import { CPlaceholder, CTableDataCell, CTableRow } from '@coreui/react';

/** Grey bars in place of the rows while the first page loads, so the table keeps its shape. */
export function PlaceholderRows({ columns, rows }: { columns: number; rows: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <CTableRow key={row} aria-hidden="true" className="placeholder-row">
          {Array.from({ length: columns }, (_, column) => (
            <CTableDataCell key={column}>
              <CPlaceholder as="span" animation="glow">
                <CPlaceholder xs={column === columns - 1 ? 10 : 8} color="secondary" />
              </CPlaceholder>
            </CTableDataCell>
          ))}
        </CTableRow>
      ))}
    </>
  );
}
