import { CButton, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilSync } from '@coreui/icons';

interface SyncButtonProps {
  syncing: boolean;
  onSync: () => void;
  /** Also off when the platform has no service to sync from. */
  disabled?: boolean;
  /** What is synced, for screen readers: 'trades', 'accounts'. */
  what: string;
}

/**
 * docs/PRODUCT.md, Trade list and Account list: shows a spinner while the sync runs and cannot be pressed again until
 * it ends.
 */
export function SyncButton({ syncing, onSync, disabled = false, what }: SyncButtonProps) {
  return (
    <CButton
      color="primary"
      className="d-inline-flex align-items-center gap-2 text-nowrap"
      disabled={syncing || disabled}
      aria-busy={syncing}
      aria-label={syncing ? `Syncing ${what}` : `Sync ${what}`}
      onClick={onSync}
    >
      {syncing ? <CSpinner size="sm" aria-hidden="true" /> : <CIcon icon={cilSync} aria-hidden="true" />}
      {syncing ? 'Syncing…' : 'Sync'}
    </CButton>
  );
}
