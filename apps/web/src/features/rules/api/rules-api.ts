import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type {
  CreateRuleSetBody,
  EditRuleSetBody,
  RuleDaysResponse,
  RulePresetsResponse,
  RuleSetDeletedResponse,
  RuleSetResponse,
  RuleSetsResponse,
  RuleStatusResponse,
} from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { config } from '../../../config/env';

/** The rules routes (docs/rules.md, API) are served by the PipSense server itself. */
const rulesBase = `${config.backend}/api/v1/rules`;

/** GET rules/get_presets: the firms' presets with their source line and assumptions. */
export const presetsQuery = () =>
  queryOptions({
    queryKey: queryKeys.rules.presets,
    queryFn: ({ signal }) =>
      authRequest<RulePresetsResponse>('GET', `${rulesBase}/get_presets`, undefined, signal).then((b) => b.data),
    // The presets are code on the server: they do not change while the page is open.
    staleTime: Infinity,
  });

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

/** GET rules/get_days/:id: every day from the set's start to now. */
export const ruleDaysQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.rules.days(id),
    queryFn: ({ signal }) =>
      authRequest<RuleDaysResponse>('GET', `${rulesBase}/get_days/${encodeURIComponent(id)}`, undefined, signal).then(
        (b) => b.data,
      ),
  });

/**
 * A change refreshes the list and what it changed: an edit the set's status and days. A deleted set's status and days
 * are not asked again (its card goes with the list), nor are a new set's (they are new keys).
 */
function useRulesMutation<T>(send: (input: T) => Promise<unknown>, changed: (input: T) => QueryKey[] = () => []) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (_answer, input) =>
      Promise.all([queryKeys.rules.sets, ...changed(input)].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

/** POST rules/create_rule_set. */
export const useCreateRuleSet = () =>
  useRulesMutation((body: CreateRuleSetBody) =>
    authRequest<RuleSetResponse>('POST', `${rulesBase}/create_rule_set`, body),
  );

type Edit = { id: string } & EditRuleSetBody;

/** POST rules/edit_rule_set/:id. */
export const useEditRuleSet = () =>
  useRulesMutation(
    ({ id, ...body }: Edit) =>
      authRequest<RuleSetResponse>('POST', `${rulesBase}/edit_rule_set/${encodeURIComponent(id)}`, body),
    ({ id }: Edit) => [queryKeys.rules.status(id), queryKeys.rules.days(id)],
  );

/** POST rules/delete_rule_set/:id. */
export const useDeleteRuleSet = () =>
  useRulesMutation((id: string) =>
    authRequest<RuleSetDeletedResponse>('POST', `${rulesBase}/delete_rule_set/${encodeURIComponent(id)}`, {}),
  );
