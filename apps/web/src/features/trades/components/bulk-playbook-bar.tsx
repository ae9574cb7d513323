import { useState } from 'react';
import { CButton, CFormSelect, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { useQuery } from '@tanstack/react-query';
import { PLAYBOOK_LIMITS } from '@pipsense/contract';
import { failureMessage } from '../../../lib/api';
import { playbooksQuery } from '../../../lib/playbooks-query';
import { useBulkAssign } from '../api/playbook-api';
import { countOf as plural } from '../model/trade-format';
import type { Selection } from '../model/trade-selection';

/** The choice that takes the selected trades off their playbook. */
const NONE = 'none';

/**
 * Beside the bulk tag bar: put every selected trade on one playbook (or off theirs). A trade moved to another
 * playbook loses its ticks and reads as not reviewed.
 */
export function BulkPlaybookBar({ selection, onDone }: { selection: Selection; onDone: () => void }) {
  const playbooks = useQuery(playbooksQuery());
  const assign = useBulkAssign();
  const [choice, setChoice] = useState('');
  const count = selection.size;
  const tooMany = count > PLAYBOOK_LIMITS.bulkTrades;
  const name = choice === NONE ? null : (playbooks.data?.find((p) => p.id === choice)?.name ?? '');

  const apply = () =>
    assign.mutate(
      { trades: [...selection.values()], playbookId: choice === NONE ? null : choice },
      {
        onSuccess: (result) => {
          toast.success(
            name === null
              ? `Took ${plural(result.data.updated, 'trade')} off their playbook.`
              : `Assigned ${plural(result.data.updated, 'trade')} to “${name}”.`,
          );
          setChoice('');
          onDone();
        },
        onError: (error) => toast.error(failureMessage(error, 'The trades could not be assigned.')),
      },
    );

  return (
    <section className="bulk-tag-bar bulk-playbook-bar" aria-label="Assign selected trades to a playbook">
      <CFormSelect
        size="sm"
        aria-label="Playbook for the selected trades"
        className="bulk-playbook-select"
        value={choice}
        disabled={assign.isPending || !playbooks.data}
        onChange={(e) => setChoice(e.target.value)}
      >
        <option value="">{playbooks.data?.length === 0 ? 'No playbooks yet' : 'Choose a playbook…'}</option>
        {playbooks.data?.map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
        <option value={NONE}>No playbook (unassign)</option>
      </CFormSelect>
      <CButton color="primary" size="sm" disabled={choice === '' || assign.isPending || tooMany} onClick={apply}>
        {assign.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
        Assign to playbook
      </CButton>
      {tooMany && (
        <p className="text-danger small mb-0 w-100" role="alert">
          Assign at most {PLAYBOOK_LIMITS.bulkTrades} trades at once: clear part of the selection.
        </p>
      )}
    </section>
  );
}
