import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CalendarResponse, CreateTagBody, DayResponse, TagResponse, UpdateDayBody } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { journalBase } from '../../../lib/tags-query';

/** GET journal/get_calendar?month=YYYY-MM&timeZone=…: one row per day with trades or an entry. */
export const calendarMonthQuery = (month: string, timeZone: string) =>
  queryOptions({
    queryKey: queryKeys.calendar.month(month, timeZone),
    queryFn: ({ signal }) =>
      authRequest<CalendarResponse>('GET', `${journalBase}/get_calendar`, { month, timeZone }, signal).then(
        (b) => b.data,
      ),
  });

export const useCalendarMonth = (month: string, timeZone: string) => useQuery(calendarMonthQuery(month, timeZone));

/** GET journal/get_day/:date: the day's entry and the trades that closed on it. */
export const useDay = (date: string, timeZone: string) =>
  useQuery({
    queryKey: queryKeys.calendar.day(date, timeZone),
    queryFn: ({ signal }) =>
      authRequest<DayResponse>('GET', `${journalBase}/get_day/${encodeURIComponent(date)}`, { timeZone }, signal).then(
        (b) => b.data,
      ),
  });

/** POST journal/update_day/:date; the calendar's `hasEntry` marks change with it, so every calendar key refreshes. */
export function useUpdateDay(date: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDayBody) =>
      authRequest<{ data: unknown }>('POST', `${journalBase}/update_day/${encodeURIComponent(date)}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.calendar.all }),
  });
}

/** Tag changes rename or remove them on every trade row, the overview's breakdown and the calendar's day lists. */
function useTagMutation<T>(send: (input: T) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: queryKeys.tags });
      void client.invalidateQueries({ queryKey: queryKeys.tradeHistory.all });
      void client.invalidateQueries({ queryKey: queryKeys.dashboardMetrics.all });
      void client.invalidateQueries({ queryKey: queryKeys.calendar.all });
    },
  });
}

/** POST journal/create_tag. */
export const useCreateTag = () =>
  useTagMutation((body: CreateTagBody) => authRequest<TagResponse>('POST', `${journalBase}/create_tag`, body));

/** POST journal/edit_tag/:tagId. */
export const useRenameTag = () =>
  useTagMutation(({ id, name }: { id: string; name: string }) =>
    authRequest<TagResponse>('POST', `${journalBase}/edit_tag/${encodeURIComponent(id)}`, { name }),
  );

/** POST journal/delete_tag/:tagId. */
export const useDeleteTag = () =>
  useTagMutation((id: string) => authRequest('POST', `${journalBase}/delete_tag/${encodeURIComponent(id)}`));
