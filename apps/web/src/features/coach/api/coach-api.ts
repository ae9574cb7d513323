import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CoachSettings, CoachSettingsBody, PatternResult, PlatformQuery, WeeklyReview } from '@pipsense/contract';
import { authRequest } from '../../../lib/api';
import { coachBase, type WeeklyReviewsData } from '../../../lib/coach-query';
import { queryKeys } from '../../../lib/query-keys';

/**
 * The range, account and platform the patterns are read over (ISO instants on the open time; absent ends are open;
 * no platform is OANDA, as the trade list's).
 */
export interface PatternFilters {
  from?: string;
  to?: string;
  accountId?: string;
  platform?: PlatformQuery;
}

/** GET coach/get_patterns: every pattern with its flagged trades and their cost against the rest. */
export const usePatterns = (filters: PatternFilters, enabled = true) =>
  useQuery({
    queryKey: queryKeys.coach.patterns(filters),
    queryFn: ({ signal }) =>
      authRequest<{ data: PatternResult[] }>('GET', `${coachBase}/get_patterns`, { ...filters }, signal).then(
        (b) => b.data,
      ),
    // A new range or account keeps the last answer on screen while it loads; another platform's never stands in.
    placeholderData: (previous, previousQuery) =>
      (previousQuery?.queryKey[2] as PatternFilters | undefined)?.platform === filters.platform ? previous : undefined,
    enabled,
  });

/** GET coach/get_settings. */
export const useCoachSettings = () =>
  useQuery({
    queryKey: queryKeys.coach.settings,
    queryFn: ({ signal }) =>
      authRequest<{ data: CoachSettings }>('GET', `${coachBase}/get_settings`, undefined, signal).then((b) => b.data),
  });

/** POST coach/update_settings: the thresholds move the patterns and the facts, so every coach read is refetched. */
export function useUpdateCoachSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CoachSettingsBody) =>
      authRequest<{ data: CoachSettings }>('POST', `${coachBase}/update_settings`, { ...body }).then((b) => b.data),
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.coach.settings, saved);
      void client.invalidateQueries({ queryKey: queryKeys.coach.all });
    },
  });
}

/** GET coach/get_weekly_review/:week: an ended week with none stored is composed on this request. */
export const useWeeklyReview = (week: string | null) =>
  useQuery({
    queryKey: queryKeys.coach.week(week ?? ''),
    queryFn: ({ signal }) =>
      authRequest<{ data: WeeklyReview }>(
        'GET',
        `${coachBase}/get_weekly_review/${encodeURIComponent(week ?? '')}`,
        undefined,
        signal,
      ).then((b) => b.data),
    enabled: week !== null,
  });

/** POST coach/read_weekly_review/:week: the list's mark and the bell's count clear at once, then are read again. */
export function useReadWeeklyReview() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (week: string) =>
      authRequest<{ data: WeeklyReview }>('POST', `${coachBase}/read_weekly_review/${encodeURIComponent(week)}`),
    onSuccess: (_answer, week) => {
      const now = new Date().toISOString();
      client.setQueryData<WeeklyReviewsData>(queryKeys.coach.weeks, (data) => {
        if (!data) return data;
        const was = data.weeks.some((w) => w.week === week && w.readAt === null);
        return {
          ...data,
          weeks: data.weeks.map((w) => (w.week === week ? { ...w, readAt: w.readAt ?? now } : w)),
          unread: was ? Math.max(0, data.unread - 1) : data.unread,
        };
      });
      return client.invalidateQueries({ queryKey: queryKeys.coach.weeks });
    },
  });
}
