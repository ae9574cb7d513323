import { queryOptions } from '@tanstack/react-query';
import type { Playbook, PlaybookReportResponse, PlaybooksResponse } from '@pipsense/contract';
import { config } from '../config/env';
import { paths } from '../config/paths';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** The playbook routes (docs/review.md) are served by the PipSense server itself. */
export const playbookBase = `${config.backend}/api/v1/playbook`;

/** GET playbook/get_playbooks: the Playbooks screen, the trade list's filter and bulk assign, the trade's details. */
export const playbooksQuery = () =>
  queryOptions({
    queryKey: queryKeys.playbooks.list,
    queryFn: ({ signal }) =>
      authRequest<PlaybooksResponse>('GET', `${playbookBase}/get_playbooks`, undefined, signal).then((b) => b.data),
  });

/** The range and account a report covers (ISO instants on the open time; absent ends are open). */
export interface ReportFilters {
  from?: string;
  to?: string;
  accountId?: string;
}

/** GET playbook/get_report/:id: the playbook's page and the Overview's Playbooks card. */
export const playbookReportQuery = (id: string, filters: ReportFilters = {}) =>
  queryOptions({
    queryKey: queryKeys.playbooks.report(id, filters),
    queryFn: ({ signal }) =>
      authRequest<PlaybookReportResponse>(
        'GET',
        `${playbookBase}/get_report/${encodeURIComponent(id)}`,
        { ...filters },
        signal,
      ).then((b) => b.data),
  });

/** A playbook's name by id, or a stand-in for one deleted meanwhile. */
export const playbookName = (playbooks: readonly Playbook[] | undefined, id: string | null) =>
  id === null ? null : (playbooks?.find((p) => p.id === id)?.name ?? 'Deleted playbook');

/** A playbook's page: the Playbooks screen opened on it (its report, rules and description). */
export const playbookPath = (id: string) => `${paths.playbooks}?playbook=${encodeURIComponent(id)}`;
