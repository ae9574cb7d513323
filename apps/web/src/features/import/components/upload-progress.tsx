import { CCard, CCardBody, CSpinner } from '@coreui/react';
import { formatBytes } from '../model/import-file';

export type UploadState = { phase: 'sending'; sent: number; total: number } | { phase: 'reading' };

/** Step 2: the bytes sent so far, then a spinner while the server reads the report. */
export function UploadProgress({ state, name }: { state: UploadState; name: string }) {
  if (state.phase === 'reading')
    return (
      <CCard className="mb-4 import-card">
        <CCardBody className="d-flex align-items-center gap-3" role="status">
          <CSpinner color="primary" aria-hidden="true" />
          <span>Reading the report…</span>
        </CCardBody>
      </CCard>
    );
  const percent = state.total > 0 ? Math.min(100, Math.round((state.sent / state.total) * 100)) : 0;
  return (
    <CCard className="mb-4 import-card">
      <CCardBody>
        <p className="mb-2 text-break">
          Uploading <strong>{name}</strong>…{' '}
          <span className="text-body-secondary">
            {formatBytes(state.sent)} of {formatBytes(state.total)}
          </span>
        </p>
        <div
          className="progress import-progress"
          role="progressbar"
          aria-label={`Uploading ${name}`}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
        >
          <div className="progress-bar progress-bar-striped progress-bar-animated" style={{ width: `${percent}%` }}>
            {percent}%
          </div>
        </div>
      </CCardBody>
    </CCard>
  );
}
