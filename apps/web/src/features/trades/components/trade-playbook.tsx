import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { CBadge, CButton, CFormCheck, CFormSelect, CFormSwitch, CSpinner } from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import type { Playbook, TradePlaybook } from '@pipsense/contract';
import { failureMessage } from '../../../lib/api';
import { playbookPath, playbooksQuery } from '../../../lib/playbooks-query';
import { useSaveTradePlaybook, useTradePlaybook } from '../api/playbook-api';
import { REVIEW_BADGE, reviewGroups, reviewState } from '../model/trade-review';

interface ReviewFormProps {
  accountId: string;
  tradeId: string;
  stored: TradePlaybook;
  playbooks: readonly Playbook[];
}

function ReviewForm({ accountId, tradeId, stored, playbooks }: ReviewFormProps) {
  const save = useSaveTradePlaybook(accountId, tradeId);
  const [playbookId, setPlaybookId] = useState(stored.playbookId ?? '');
  const [followed, setFollowed] = useState<ReadonlySet<string>>(() => new Set(stored.followedRuleIds));
  const [reviewed, setReviewed] = useState(stored.reviewed);
  const playbook = playbooks.find((p) => p.id === playbookId);
  const groups = reviewGroups(stored, playbook);
  const current = groups.flatMap((g) => g.rules.filter((r) => !r.retired).map((r) => r.id));
  const state = reviewState(stored);
  const badge = state === 'none' ? null : REVIEW_BADGE[state];

  const choose = (id: string) => {
    setPlaybookId(id);
    // Another playbook has other rules: its review starts over.
    setFollowed(id === stored.playbookId ? new Set(stored.followedRuleIds) : new Set());
    setReviewed(id === stored.playbookId ? stored.reviewed : false);
  };
  const tick = (id: string, on: boolean) =>
    setFollowed((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const submit = () =>
    save.mutate(
      {
        playbookId: playbookId || null,
        followedRuleIds: playbookId ? current.filter((id) => followed.has(id)) : [],
        reviewed: playbookId ? reviewed : false,
      },
      {
        onSuccess: () => toast.success('Saved the playbook review'),
        onError: (error) => toast.error(failureMessage(error, 'The playbook review could not be saved.')),
      },
    );

  return (
    <>
      <div className="trade-playbook-head">
        <CFormSelect
          size="sm"
          aria-label="Playbook"
          value={playbookId}
          onChange={(e) => choose(e.target.value)}
          className="trade-playbook-select"
        >
          <option value="">No playbook</option>
          {playbooks.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
          {stored.playbookId && !playbook && playbookId === stored.playbookId && (
            <option value={stored.playbookId}>Deleted playbook</option>
          )}
        </CFormSelect>
        {badge && (
          <CBadge color={badge.color} role="status">
            {badge.text}
          </CBadge>
        )}
      </div>
      {playbookId !== '' && (
        <>
          {groups.length === 0 ? (
            <p className="text-body-secondary small mt-2 mb-0">
              This playbook has no rules yet: <Link to={playbookPath(playbookId)}>write them</Link>.
            </p>
          ) : (
            groups.map((group) => (
              <fieldset key={group.name} className="trade-playbook-group">
                <legend className="small text-uppercase text-body-secondary mb-1">{group.name}</legend>
                {group.rules.map((rule) => (
                  <CFormCheck
                    key={rule.id}
                    id={`trade-rule-${rule.id}`}
                    checked={followed.has(rule.id)}
                    // A retired rule keeps the tick the trade was reviewed with; a new review leaves it out.
                    disabled={rule.retired}
                    onChange={(e) => tick(rule.id, e.target.checked)}
                    label={
                      <>
                        {rule.text}
                        {rule.retired && <span className="badge text-bg-light fw-normal ms-2">retired</span>}
                      </>
                    }
                  />
                ))}
              </fieldset>
            ))
          )}
          <CFormSwitch
            id={`trade-reviewed-${accountId}-${tradeId}`}
            className="mt-2"
            label={reviewed ? 'Reviewed' : 'Not reviewed yet'}
            checked={reviewed}
            onChange={(e) => setReviewed(e.target.checked)}
          />
        </>
      )}
      <CButton color="primary" size="sm" className="mt-2" disabled={save.isPending} onClick={submit}>
        {save.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
        Save review
      </CButton>
    </>
  );
}

/**
 * The trade's playbook in its details (docs/review.md, Playbooks and reviews): the playbook it follows (or none), the
 * rules followed, ticked by group, and whether the review is done; unreviewed is its own state, whatever is ticked.
 */
export function TradePlaybookSection({ accountId, tradeId }: { accountId: string; tradeId: string }) {
  const stored = useTradePlaybook(accountId, tradeId);
  const playbooks = useQuery(playbooksQuery());
  return (
    <section className="trade-playbook mb-4" aria-labelledby="trade-playbook-title">
      <h3 id="trade-playbook-title" className="h6 fw-semibold mb-2">
        Playbook
      </h3>
      {stored.isError || playbooks.isError ? (
        <p className="text-danger small mb-0" role="alert">
          The playbook review could not be loaded: {(stored.error ?? playbooks.error)?.message}
        </p>
      ) : !stored.data || !playbooks.data ? (
        <CSpinner size="sm" color="primary" aria-label="Loading the playbook review" />
      ) : (
        <ReviewForm
          key={`${stored.data.playbookId ?? ''}:${stored.data.reviewed}:${stored.data.followedRuleIds.join(',')}`}
          accountId={accountId}
          tradeId={tradeId}
          stored={stored.data}
          playbooks={playbooks.data}
        />
      )}
    </section>
  );
}
