import { queryOptions } from '@tanstack/react-query';
import { BUILTIN_SOURCE, type WeeklyReviewListItem } from '@pipsense/contract';
import { config } from '../config/env';
import { paths } from '../config/paths';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** The coach routes (docs/coach.md) are served by the PipSense server itself. */
export const coachBase = `${config.backend}/api/v1/coach`;

/** Who wrote a review: 'built-in analysis', or the provider's model name. */
export const sourceLabel = (source: string) => (source === BUILTIN_SOURCE ? 'built-in analysis' : source);

/** The weekly list's data (contract: weeklyReviewsResponse). */
export interface WeeklyReviewsData {
  weeks: WeeklyReviewListItem[];
  unread: number;
  /** The latest ended week in the trader's time zone. */
  lastEnded: string;
}

/** The Weekly Reviews screen opened on one week. */
export const weekPath = (week: string) => `${paths.coachWeeklyReviews}?week=${encodeURIComponent(week)}`;

/**
 * GET coach/get_weekly_reviews: the stored weeks, newest first, and how many are unread. The header's bell reads it
 * as it reads the rule alerts (every minute and on focus), so a review composed in the background shows up.
 */
export const weeklyReviewsQuery = () =>
  queryOptions({
    queryKey: queryKeys.coach.weeks,
    queryFn: ({ signal }) =>
      authRequest<{ data: WeeklyReviewsData }>('GET', `${coachBase}/get_weekly_reviews`, undefined, signal).then(
        (b) => b.data,
      ),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
