import { useState, type FormEvent } from 'react';
import { CFormSelect } from '@coreui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { CURRENCY_CODES } from '@pipsense/contract';
import { FormCard } from './form-card';
import { getHomeCurrency, updateHomeCurrency } from '../api/profile-api';
import { queryKeys } from '../../../lib/query-keys';
import { failureMessage } from '../../../lib/api';

/** 'JPY — Japanese Yen' where the browser knows the name. */
function currencyLabel(code: string): string {
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'currency' }).of(code);
    return name && name !== code ? `${code} — ${name}` : code;
  } catch {
    return code;
  }
}

/**
 * Profile → Home currency: money of accounts in several currencies is converted into it, or listed per currency when
 * a rate is missing (docs/decisions/024-currencies-never-mixed.md). Until the trader picks one it is the currency of
 * most of their trades.
 */
export function HomeCurrencyCard() {
  const client = useQueryClient();
  const saved = useQuery({ queryKey: queryKeys.homeCurrency, queryFn: ({ signal }) => getHomeCurrency(signal) });
  const [choice, setChoice] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: updateHomeCurrency,
    onSuccess: (data) => {
      client.setQueryData(queryKeys.homeCurrency, data);
      void client.invalidateQueries({ queryKey: queryKeys.dashboardMetrics.all });
      void client.invalidateQueries({ queryKey: queryKeys.calendar.all });
    },
  });

  const current = choice ?? saved.data?.currency ?? 'USD';
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saved.data && !saved.data.isDefault && current === saved.data.currency) {
      toast.info('Nothing to save: this is your home currency already.');
      return;
    }
    try {
      const data = await save.mutateAsync(current);
      toast.success(`Home currency set to ${data.currency}.`);
    } catch (error) {
      toast.error(failureMessage(error, 'The home currency could not be saved'));
    }
  }

  const note = saved.data?.isDefault
    ? `Not chosen yet: ${saved.data.currency} is the default, the currency of most of your trades.`
    : saved.data
      ? `Your home currency is ${saved.data.currency}.`
      : '';
  return (
    <FormCard title="Home currency" busy={save.isPending || saved.isPending} onSubmit={onSubmit}>
      <div className="mb-4">
        <CFormSelect
          id="profile-home-currency"
          label="Home currency"
          value={current}
          onChange={(e) => setChoice(e.target.value)}
          text={`${note} Totals over accounts in several currencies are converted into it at each day's rate, or shown per currency when a rate is missing.`}
          options={CURRENCY_CODES.map((code) => ({ label: currencyLabel(code), value: code }))}
        />
      </div>
    </FormCard>
  );
}
