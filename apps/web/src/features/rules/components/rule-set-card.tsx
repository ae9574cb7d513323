import { useState } from 'react';
import { toast } from 'react-toastify';
import { CButton, CCard, CCardBody, CCardHeader } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPencil, cilTrash } from '@coreui/icons';
import { useQuery } from '@tanstack/react-query';
import type { RulePreset, StoredRuleSet } from '@pipsense/contract';
import { formatDateTime, formatMoney } from '../../../components/data/format';
import { ruleStatusQuery, useDeleteRuleSet, useEditRuleSet } from '../api/rules-api';
import { AlertSettings } from './alert-settings';
import { DeleteDialog } from '../../../components/forms/delete-dialog';
import { InlineRename } from '../../../components/forms/inline-rename';
import { RuleDays } from './rule-days';
import { RuleEquityChart } from './rule-equity-chart';
import { RuleList } from './rule-list';
import { RuleStatusPanel } from './rule-status';

function RenameForm({ ruleSet, onDone }: { ruleSet: StoredRuleSet; onDone: () => void }) {
  const edit = useEditRuleSet();
  return (
    <InlineRename
      name={ruleSet.name}
      save={(name) => edit.mutateAsync({ id: ruleSet.id, name })}
      pending={edit.isPending}
      failure="The rule set could not be renamed."
      onDone={onDone}
    />
  );
}

function DeleteRuleSet({ ruleSet, onClose }: { ruleSet: StoredRuleSet; onClose: () => void }) {
  const remove = useDeleteRuleSet();
  const confirm = () =>
    remove.mutate(ruleSet.id, {
      onSuccess: () => {
        toast.success(`Deleted “${ruleSet.name}”`);
        onClose();
      },
    });
  return (
    <DeleteDialog
      title={`Delete “${ruleSet.name}”?`}
      confirm="Delete rule set"
      pending={remove.isPending}
      error={remove.error}
      failure="The rule set could not be deleted."
      onConfirm={confirm}
      onClose={onClose}
    >
      The rules and their status go; the account and its trades stay.
    </DeleteDialog>
  );
}

/** One rule set: its account and start, the status at a glance, its rules (and the preset's assumptions) and the day-by-day table. */
export function RuleSetCard({
  ruleSet,
  accountLabel,
  preset,
}: {
  ruleSet: StoredRuleSet;
  accountLabel: string;
  preset: RulePreset | undefined;
}) {
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const currency = useQuery(ruleStatusQuery(ruleSet.id)).data?.currency ?? '';
  const titleId = `rule-set-${ruleSet.id}`;
  return (
    <CCard className="rule-set" role="region" aria-labelledby={titleId}>
      <CCardHeader className="rule-set-head">
        {editing ? (
          <RenameForm ruleSet={ruleSet} onDone={() => setEditing(false)} />
        ) : (
          <>
            <h2 id={titleId} className="h6 mb-0 rule-set-name">
              {ruleSet.name}
            </h2>
            <span className="rule-set-actions">
              <CButton
                size="sm"
                color="secondary"
                variant="ghost"
                aria-label={`Rename ${ruleSet.name}`}
                onClick={() => setEditing(true)}
              >
                <CIcon icon={cilPencil} />
              </CButton>
              <CButton
                size="sm"
                color="danger"
                variant="ghost"
                aria-label={`Delete ${ruleSet.name}`}
                onClick={() => setDeleting(true)}
              >
                <CIcon icon={cilTrash} />
              </CButton>
            </span>
          </>
        )}
        <div className="rule-set-meta text-body-secondary small">
          {accountLabel} · from {formatDateTime(ruleSet.startTime)} · start balance{' '}
          {formatMoney(ruleSet.initialBalance, currency)}
        </div>
      </CCardHeader>
      <CCardBody>
        <RuleStatusPanel ruleSet={ruleSet} />
        <AlertSettings ruleSet={ruleSet} />
        <RuleList ruleSet={ruleSet} preset={preset} currency={currency} />
        <h3 className="h6 mt-3">Equity and floors</h3>
        <RuleEquityChart ruleSet={ruleSet} currency={currency} />
        <h3 className="h6 mt-3">Day by day</h3>
        <RuleDays id={ruleSet.id} name={ruleSet.name} currency={currency} />
      </CCardBody>
      {deleting && <DeleteRuleSet ruleSet={ruleSet} onClose={() => setDeleting(false)} />}
    </CCard>
  );
}
