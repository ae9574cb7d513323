import { useState } from 'react';
import { CButton, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPlus } from '@coreui/icons';
import { useQueries, useQuery } from '@tanstack/react-query';
import { EmptyState, LoadErrorState } from '../../../components/data/data-states';
import { platformScope } from '../../../components/data/platform-scope';
import { accountsOfPlatformQuery } from '../../../lib/accounts-query';
import { presetsQuery, ruleSetsQuery } from '../api/rules-api';
import { accountChoices } from '../model/account-choices';
import { AddRuleSetForm } from './add-rule-set-form';
import { AlertsSection } from './alerts-section';
import { RuleSetCard } from './rule-set-card';
import '../rules.css';

/** The platforms whose accounts a rule set can watch: those with a trading service. */
const SCOPES = [platformScope('OANDA'), platformScope('MetaTrader')].filter((scope) => scope.base !== null);

const EMPTY_RULES_HINT = 'No rule sets yet: add one to see how much room is left today.';

/**
 * docs/PRODUCT.md, My Rules: the trader's prop-firm challenges and own risk rules (docs/rules.md), each with its
 * status at a glance and its days.
 */
export function RulesPage() {
  const sets = useQuery(ruleSetsQuery());
  const presets = useQuery(presetsQuery());
  const accountLists = useQueries({
    queries: SCOPES.map((scope) => accountsOfPlatformQuery(scope.base ?? '', scope.params.platform)),
  });
  const [adding, setAdding] = useState(false);
  const accounts = accountChoices(accountLists.flatMap((list) => list.data?.data ?? []));
  const accountsLoading = accountLists.some((list) => list.isPending);

  if (sets.isError)
    return <LoadErrorState what="rule sets" message={sets.error.message} onRetry={() => void sets.refetch()} />;
  if (!sets.data)
    return (
      <div className="rule-loading" role="status" aria-label="Loading rule sets">
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );

  const addButton = (
    <CButton color="primary" onClick={() => setAdding(true)} disabled={accountsLoading || accounts.length === 0}>
      <CIcon icon={cilPlus} className="me-1" aria-hidden="true" />
      Add rule set
    </CButton>
  );
  const noAccounts = !accountsLoading && accounts.length === 0;

  return (
    <div className="rules-page">
      <div className="rules-toolbar">
        {noAccounts && (
          <span className="text-body-secondary small">Connect or import an account first: rules watch an account.</span>
        )}
        {sets.data.length > 0 && addButton}
      </div>
      <AlertsSection />
      {sets.data.length === 0 ? (
        <EmptyState title="No rule sets" hint={EMPTY_RULES_HINT} action={addButton} />
      ) : (
        <div className="rule-sets">
          {sets.data.map((ruleSet) => (
            <RuleSetCard
              key={ruleSet.id}
              ruleSet={ruleSet}
              accountLabel={accounts.find((a) => a.id === ruleSet.accountId)?.label ?? ruleSet.accountId}
              preset={presets.data?.find((p) => p.id === ruleSet.preset)}
            />
          ))}
        </div>
      )}
      {adding && <AddRuleSetForm accounts={accounts} onClose={() => setAdding(false)} />}
    </div>
  );
}
