import { useState } from 'react';
import { CButton, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import type { TradeFilterQuery } from '@pipsense/contract';
import { failureMessage } from '../../../lib/api';
import { downloadTradesCsv } from '../api/export-trades';

/** 'Export CSV': downloads the list under its current filters; disabled with a spinner while the file comes. */
export function ExportButton({ base, filters }: { base: string | null; filters: TradeFilterQuery }) {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (base === null) return;
    setBusy(true);
    try {
      const name = await downloadTradesCsv(base, filters);
      toast.success(`Exported the filtered trades to ${name}.`);
    } catch (error) {
      toast.error(failureMessage(error, 'The trades could not be exported.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <CButton
      color="secondary"
      variant="outline"
      className="text-nowrap export-button"
      disabled={base === null || busy}
      aria-label={busy ? 'Exporting trades' : 'Export CSV'}
      onClick={() => void run()}
    >
      {busy && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
      {busy ? 'Exporting…' : 'Export CSV'}
    </CButton>
  );
}
