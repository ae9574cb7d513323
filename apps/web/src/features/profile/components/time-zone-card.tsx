import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CFormSelect } from '@coreui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { FormCard } from './form-card';
import { getTimeZone, updateTimeZone } from '../api/profile-api';
import { queryKeys } from '../../../lib/query-keys';
import { browserTimeZone } from '../../../lib/time-zone';
import { failureMessage } from '../../../lib/api';

/** Every IANA zone this browser knows, with the given ones first when it does not list them. */
function zoneOptions(...wanted: Array<string | null | undefined>): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const extra = wanted.filter((z): z is string => Boolean(z) && !known.includes(z!));
  return [...new Set([...extra, ...known])];
}

/**
 * Profile → Time zone: the zone the Overview's days and hours are in, and its stored snapshot computed in.
 * Unset, it is saved once as the browser's zone; the trader may then pick another.
 */
export function TimeZoneCard() {
  const client = useQueryClient();
  const saved = useQuery({ queryKey: queryKeys.timeZone, queryFn: ({ signal }) => getTimeZone(signal) });
  const browser = browserTimeZone();
  const [choice, setChoice] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: updateTimeZone,
    onSuccess: (zone) => {
      client.setQueryData(queryKeys.timeZone, zone);
      void client.invalidateQueries({ queryKey: queryKeys.dashboardMetrics.all });
    },
  });
  // The browser's zone, sent once when none is saved.
  const adopted = useRef(false);
  useEffect(() => {
    if (saved.data === null && browser && !adopted.current) {
      adopted.current = true;
      save.mutate(browser);
    }
  }, [saved.data, browser, save]);

  const current = choice ?? saved.data ?? browser ?? 'UTC';
  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (current === saved.data) {
      toast.info('Nothing to save: this is your time zone already.');
      return;
    }
    try {
      const zone = await save.mutateAsync(current);
      toast.success(`Time zone set to ${zone}. The Overview now counts days and hours in it.`);
    } catch (error) {
      toast.error(failureMessage(error, 'The time zone could not be saved'));
    }
  }

  return (
    <FormCard title="Time zone" busy={save.isPending || saved.isPending} onSubmit={onSubmit}>
      <div className="mb-4">
        <CFormSelect
          id="profile-time-zone"
          label="Time zone"
          value={current}
          onChange={(e) => setChoice(e.target.value)}
          text={`The Overview's days and hours are counted in this zone.${browser ? ` Your browser is in ${browser}.` : ''}`}
          options={zoneOptions(current, browser).map((zone) => ({ label: zone.replaceAll('_', ' '), value: zone }))}
        />
      </div>
    </FormCard>
  );
}
