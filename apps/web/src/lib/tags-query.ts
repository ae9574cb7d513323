import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateTagBody, TagItem, TagKind, TagResponse, TagsResponse } from '@pipsense/contract';
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

/** POST journal/create_tag: a new tag of a kind; the tag list is read again so every picker offers it. */
export function useCreateTag() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTagBody) =>
      authRequest<TagResponse>('POST', `${journalBase}/create_tag`, { ...body }).then((b) => b.data),
    onSuccess: (tag) => {
      client.setQueryData<TagItem[]>(queryKeys.tags, (tags) => (tags ? [...tags, tag] : tags));
      void client.invalidateQueries({ queryKey: queryKeys.tags });
    },
  });
}
