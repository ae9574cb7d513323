import { queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type {
  CreateRuleSetBody,
  EditRuleSetBody,
  RuleDaysResponse,
  RulePresetsResponse,
  RuleSetDeletedResponse,
  RuleSetResponse,
} from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { rulesBase } from '../../../lib/rules-query';

/** GET rules/get_presets: the firms' presets with their source line and assumptions. */
export const presetsQuery = () =>
  queryOptions({
    queryKey: queryKeys.rules.presets,
    queryFn: ({ signal }) =>
      authRequest<RulePresetsResponse>('GET', `${rulesBase}/get_presets`, undefined, signal).then((b) => b.data),
    // The presets are code on the server: they do not change while the page is open.
    staleTime: Infinity,
  });

/** The rule sets and their status: shared with the Overview's Rules card. */
export { ruleSetsQuery, ruleStatusQuery } from '../../../lib/rules-query';

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
