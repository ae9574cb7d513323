import { useQuery } from '@tanstack/react-query';
import type { TagItem, TagKind, TagsResponse } from '@pipsense/contract';
import { config } from '../config/env';
import { authRequest } from './api';
import { queryKeys } from './query-keys';

/** Base of the journal routes (tags, trade notes, calendar, day entries). */
export const journalBase = `${config.backend}/api/v1/journal`;

/** GET journal/get_tags: the trader's tags, read by the trade list, the trade modal, the overview and the tag manager. */
export const useTags = () =>
  useQuery({
    queryKey: queryKeys.tags,
    queryFn: ({ signal }): Promise<TagItem[]> =>
      authRequest<TagsResponse>('GET', `${journalBase}/get_tags`, undefined, signal).then((b) => b.data),
    staleTime: 30_000,
  });

/** How each kind is named and coloured (CoreUI colour names) wherever tags are shown. */
export const TAG_KIND_STYLE: Record<TagKind, { label: string; color: 'primary' | 'danger' | 'warning' }> = {
  setup: { label: 'Setup', color: 'primary' },
  mistake: { label: 'Mistake', color: 'danger' },
  emotion: { label: 'Emotion', color: 'warning' },
};
