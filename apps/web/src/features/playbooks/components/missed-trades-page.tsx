import { useState } from 'react';
import { toast } from 'react-toastify';
import { CBadge, CButton, CCard, CCardBody, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPencil, cilPlus, cilTrash } from '@coreui/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MissedTrade, Playbook } from '@pipsense/contract';
import { AttachmentsPanel } from '../../../components/attachments/attachments-panel';
import { EmptyState, LoadErrorState } from '../../../components/data/data-states';
import { formatDateTime, formatInstrument, formatR } from '../../../components/data/format';
import { NoteText } from '../../../components/journal/note-text';
import { playbookName } from '../../../lib/playbooks-query';
import { queryKeys } from '../../../lib/query-keys';
import { missedTradesQuery, playbooksQuery, useDeleteMissedTrade } from '../api/playbooks-api';
import { OUTCOME_BADGE } from '../model/report-figures';
import { DeleteDialog } from '../../../components/forms/delete-dialog';
import { MissedTradeForm } from './missed-trade-form';
import '../playbooks.css';

const EMPTY_HINT =
  'Log a setup you saw and did not take: PipSense reads the candles after it and tells what it would have made in R.';

function Price({ label, value }: { label: string; value: string | null }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd className="num">{value ?? '-'}</dd>
    </div>
  );
}

/**
 * The missed trade's chart images, folded by default: a list of missed trades reads no image until the trader opens
 * a row's images.
 */
function MissedImages({ missed, name }: { missed: MissedTrade; name: string }) {
  const [open, setOpen] = useState(false);
  const queryClient = useQueryClient();
  const count = missed.attachmentCount;
  return (
    <div className="missed-images">
      <CButton
        size="sm"
        color="secondary"
        variant="ghost"
        aria-expanded={open}
        aria-label={`${open ? 'Hide' : 'Show'} images of ${name}`}
        onClick={() => setOpen((v) => !v)}
      >
        {open ? 'Hide images' : count > 0 ? `Images (${count})` : 'Add images'}
      </CButton>
      {open && (
        <AttachmentsPanel
          target="missed"
          id={missed.id}
          title="Images"
          onCountChange={() => void queryClient.invalidateQueries({ queryKey: queryKeys.playbooks.missed })}
        />
      )}
    </div>
  );
}

function MissedRow({
  missed,
  playbooks,
  onEdit,
  onDelete,
}: {
  missed: MissedTrade;
  playbooks: readonly Playbook[];
  onEdit: () => void;
  onDelete: () => void;
}) {
  const badge = OUTCOME_BADGE[missed.outcome];
  const name = `${formatInstrument(missed.instrument)} ${missed.side} at ${formatDateTime(missed.time)}`;
  return (
    <li className="missed-row" aria-label={name}>
      <div className="missed-head">
        <span className="fw-semibold">{formatInstrument(missed.instrument)}</span>
        <CBadge color={missed.side === 'long' ? 'success' : 'danger'} className="text-uppercase fw-normal">
          {missed.side}
        </CBadge>
        <span className="text-body-secondary small">{formatDateTime(missed.time)}</span>
        <span className="missed-actions">
          <CButton size="sm" color="secondary" variant="ghost" aria-label={`Edit ${name}`} onClick={onEdit}>
            <CIcon icon={cilPencil} />
          </CButton>
          <CButton size="sm" color="danger" variant="ghost" aria-label={`Delete ${name}`} onClick={onDelete}>
            <CIcon icon={cilTrash} />
          </CButton>
        </span>
      </div>
      <dl className="missed-prices">
        <Price label="Entry" value={missed.entry} />
        <Price label="Stop" value={missed.stop} />
        <Price label="Target" value={missed.target} />
        <div>
          <dt>Playbook</dt>
          <dd>{playbookName(playbooks, missed.playbookId) ?? <span className="text-body-secondary">None</span>}</dd>
        </div>
      </dl>
      <div className="missed-outcome">
        <CBadge color={badge.color}>{badge.text}</CBadge>
        {missed.wouldBeR !== null && (
          <span className="fw-semibold num">
            would-be {formatR(missed.wouldBeR)}
            {missed.outcome === 'open' && <span className="text-body-secondary fw-normal"> so far</span>}
          </span>
        )}
        {missed.outcomeTime && (
          <span className="text-body-secondary small">at {formatDateTime(missed.outcomeTime)}</span>
        )}
        {missed.outcomeNote && <span className="text-body-secondary small">{missed.outcomeNote}</span>}
      </div>
      {missed.note.trim() !== '' && <NoteText text={missed.note} className="missed-note small" />}
      <MissedImages missed={missed} name={name} />
    </li>
  );
}

/**
 * docs/PRODUCT.md, Missed Trades: setups seen and not taken, each with what the candles after it say it would have
 * done (target, stop, still open, or unavailable and why) and its would-be R.
 */
export function MissedTradesPage() {
  const missed = useQuery(missedTradesQuery());
  const playbooks = useQuery(playbooksQuery());
  const [editing, setEditing] = useState<MissedTrade | 'new' | null>(null);
  const [deleting, setDeleting] = useState<MissedTrade | null>(null);
  const remove = useDeleteMissedTrade();

  if (missed.isError)
    return <LoadErrorState what="missed trades" message={missed.error.message} onRetry={() => void missed.refetch()} />;
  if (!missed.data)
    return (
      <div className="pb-loading" role="status" aria-label="Loading missed trades">
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );

  const addButton = (
    <CButton color="primary" onClick={() => setEditing('new')}>
      <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
      Log a missed trade
    </CButton>
  );
  const list = playbooks.data ?? [];
  return (
    <div className="missed-page">
      {missed.data.length === 0 ? (
        <EmptyState title="No missed trades" hint={EMPTY_HINT} action={addButton} />
      ) : (
        <>
          <div className="pb-toolbar">{addButton}</div>
          <CCard>
            <CCardBody className="p-0">
              <ul className="missed-list list-unstyled mb-0" aria-label="Missed trades">
                {missed.data.map((m) => (
                  <MissedRow
                    key={m.id}
                    missed={m}
                    playbooks={list}
                    onEdit={() => setEditing(m)}
                    onDelete={() => {
                      remove.reset();
                      setDeleting(m);
                    }}
                  />
                ))}
              </ul>
            </CCardBody>
          </CCard>
        </>
      )}
      {editing && (
        <MissedTradeForm
          missed={editing === 'new' ? null : editing}
          playbooks={list}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && (
        <DeleteDialog
          title="Delete this missed trade?"
          confirm="Delete missed trade"
          pending={remove.isPending}
          error={remove.error}
          failure="The missed trade could not be deleted."
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting.id, {
              onSuccess: () => {
                toast.success('Deleted the missed trade');
                setDeleting(null);
              },
            })
          }
        >
          {formatInstrument(deleting.instrument)} {deleting.side} at {formatDateTime(deleting.time)} and its images go.
        </DeleteDialog>
      )}
    </div>
  );
}
