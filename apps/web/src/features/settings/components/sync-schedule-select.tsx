import { useId } from 'react';
import { CFormSelect } from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { SYNC_INTERVAL_LABELS, SYNC_INTERVALS, type SyncInterval } from '@pipsense/contract';
import { syncStatusQuery, useSyncSchedule } from '../../../components/data/sync-status-query';

/** Settings → Trading Platforms: how often OANDA is synced in the background (Off, 5 or 15 minutes, hourly). */
export function SyncScheduleSelect() {
  const id = useId();
  const status = useQuery(syncStatusQuery);
  const schedule = useSyncSchedule();
  const value = schedule.isPending ? schedule.variables : status.data?.interval;
  return (
    <div className="mt-4" style={{ maxWidth: '22rem' }}>
      <label htmlFor={id} className="form-label">
        OANDA background sync
      </label>
      <CFormSelect
        id={id}
        value={value ?? ''}
        disabled={status.data === undefined || schedule.isPending}
        onChange={(event) =>
          schedule.mutate(event.target.value as SyncInterval, {
            onSuccess: (result) => toast.success(result.message),
            onError: (error) => toast.error(error.message),
          })
        }
      >
        {value === undefined && <option value="">Loading…</option>}
        {SYNC_INTERVALS.map((interval) => (
          <option key={interval} value={interval}>
            {SYNC_INTERVAL_LABELS[interval]}
          </option>
        ))}
      </CFormSelect>
      {status.isError && <div className="form-text text-danger">{status.error.message}</div>}
      {status.data?.paused && status.data.lastError && (
        <div className="form-text text-warning-emphasis">{status.data.lastError}</div>
      )}
      <div className="form-text">Trades and accounts are also synced whenever you click Sync.</div>
    </div>
  );
}
