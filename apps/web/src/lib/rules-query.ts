import { queryOptions } from '@tanstack/react-query';
import type { RuleSetsResponse, RuleStatusResponse } from '@pipsense/contract';
import { config } from '../config/env';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** The rules routes (docs/rules.md, API) are served by the PipSense server itself. */
export const rulesBase = `${config.backend}/api/v1/rules`;

/** GET rules/get_rule_sets: the user's sets, oldest first. */
export const ruleSetsQuery = () =>
  queryOptions({
    queryKey: queryKeys.rules.sets,
    queryFn: ({ signal }) =>
      authRequest<RuleSetsResponse>('GET', `${rulesBase}/get_rule_sets`, undefined, signal).then((b) => b.data),
  });

/** GET rules/get_status/:id: the set's state now. */
export const ruleStatusQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.rules.status(id),
    queryFn: ({ signal }) =>
      authRequest<RuleStatusResponse>(
        'GET',
        `${rulesBase}/get_status/${encodeURIComponent(id)}`,
        undefined,
        signal,
      ).then((b) => b.data),
    // Today's room moves with the prices and the clock: read again every minute while the page is open.
    refetchInterval: 60_000,
  });
