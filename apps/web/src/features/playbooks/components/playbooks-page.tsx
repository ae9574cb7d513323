import { useState } from 'react';
import { toast } from 'react-toastify';
import { useSearchParams } from 'react-router';
import { CButton, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPlus } from '@coreui/icons';
import { useQuery } from '@tanstack/react-query';
import { PLAYBOOK_LIMITS, type Playbook } from '@pipsense/contract';
import { EmptyState, LoadErrorState } from '../../../components/data/data-states';
import { playbooksQuery, useDeletePlaybook } from '../api/playbooks-api';
import { countOf } from '../model/playbook-view';
import { DeleteDialog } from '../../../components/forms/delete-dialog';
import { PlaybookCard } from './playbook-card';
import { PlaybookDetail } from './playbook-detail';
import { PlaybookForm } from './playbook-form';
import '../playbooks.css';

const EMPTY_HINT =
  'Write down a setup you trade as a checklist: entry, exit, risk and context rules. Then review each trade against it.';

function DeletePlaybook({ playbook, onClose }: { playbook: Playbook; onClose: () => void }) {
  const remove = useDeletePlaybook();
  return (
    <DeleteDialog
      title={`Delete “${playbook.name}”?`}
      confirm="Delete playbook"
      pending={remove.isPending}
      error={remove.error}
      failure="The playbook could not be deleted."
      onClose={onClose}
      onConfirm={() =>
        remove.mutate(playbook.id, {
          onSuccess: () => {
            toast.success(`Deleted “${playbook.name}”`);
            onClose();
          },
        })
      }
    >
      {playbook.counts.trades > 0
        ? `Its ${countOf(playbook.counts.trades, 'trade')} lose the assignment and their reviews; `
        : ''}
      {playbook.counts.missed > 0 ? `its missed trades stay, without a playbook; ` : ''}
      its images are deleted.
    </DeleteDialog>
  );
}

/**
 * docs/PRODUCT.md, Playbooks: the trader's setups as checklists with their counts and follow rate; one opened
 * (`?playbook=id`) shows its report.
 */
export function PlaybooksPage() {
  const playbooks = useQuery(playbooksQuery());
  const [params] = useSearchParams();
  const openId = params.get('playbook');
  // null: closed; 'new': a new playbook; else the playbook edited.
  const [editing, setEditing] = useState<Playbook | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Playbook | null>(null);

  if (playbooks.isError)
    return (
      <LoadErrorState what="playbooks" message={playbooks.error.message} onRetry={() => void playbooks.refetch()} />
    );
  if (!playbooks.data)
    return (
      <div className="pb-loading" role="status" aria-label="Loading playbooks">
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );

  const list = playbooks.data;
  const form = editing && (
    <PlaybookForm playbook={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
  );
  const opened = openId === null ? undefined : list.find((p) => p.id === openId);
  if (openId !== null)
    return opened ? (
      <>
        <PlaybookDetail playbook={opened} onEdit={() => setEditing(opened)} />
        {form}
      </>
    ) : (
      <EmptyState title="Playbook not found" hint="It may have been deleted. Open Playbooks to see the others." />
    );

  const addButton = (
    <CButton
      color="primary"
      onClick={() => setEditing('new')}
      disabled={list.length >= PLAYBOOK_LIMITS.playbooksPerUser}
    >
      <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
      New playbook
    </CButton>
  );
  return (
    <div className="playbooks-page">
      {list.length === 0 ? (
        <EmptyState title="No playbooks yet" hint={EMPTY_HINT} action={addButton} />
      ) : (
        <>
          <div className="pb-toolbar">{addButton}</div>
          <div className="pb-cards">
            {list.map((playbook) => (
              <PlaybookCard
                key={playbook.id}
                playbook={playbook}
                onEdit={() => setEditing(playbook)}
                onDelete={() => setDeleting(playbook)}
              />
            ))}
          </div>
        </>
      )}
      {form}
      {deleting && <DeletePlaybook playbook={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
