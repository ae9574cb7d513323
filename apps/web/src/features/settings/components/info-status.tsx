import { CAlert, CButton, CSpinner } from '@coreui/react';

/** In place of a settings screen while get_info loads, or when it failed. */
export function InfoLoading() {
  return (
    <div className="d-flex align-items-center gap-2 py-5 justify-content-center text-body-secondary" role="status">
      <CSpinner size="sm" aria-hidden="true" />
      Loading your settings…
    </div>
  );
}

export function InfoError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <CAlert color="danger" className="d-flex flex-wrap align-items-center gap-3" role="alert">
      <span className="flex-grow-1">
        <strong>Your settings could not be loaded.</strong> {message}
      </span>
      <CButton color="danger" variant="outline" size="sm" onClick={onRetry}>
        Try again
      </CButton>
    </CAlert>
  );
}
