import { toast } from 'react-toastify';
import type { TagKind, TradeTag } from '@pipsense/contract';
import { failureMessage } from '../../lib/api';
import { useCreateTag } from '../../lib/tags-query';

/** A TagPicker's `onCreate`: POST journal/create_tag, with the server's refusal (a duplicate name, say) toasted. */
export function useTagCreator(): (name: string, kind: TagKind) => Promise<TradeTag> {
  const createTag = useCreateTag();
  return (name, kind) =>
    createTag.mutateAsync({ name, kind }).catch((error: unknown) => {
      toast.error(failureMessage(error, 'The tag could not be created.'));
      throw error;
    });
}
