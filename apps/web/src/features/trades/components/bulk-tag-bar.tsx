import { useState } from 'react';
import { CButton, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { JOURNAL_LIMITS } from '@pipsense/contract';
import { TagPicker } from '../../../components/journal/tag-picker';
import { failureMessage } from '../../../lib/api';
import { countOf as plural } from '../model/trade-format';
import { useTags } from '../../../lib/tags-query';
import { useTagCreator } from '../../../components/journal/use-tag-creator';
import { useBulkTag } from '../api/journal-api';
import { bulkTagBody, type Selection } from '../model/trade-selection';

interface BulkTagBarProps {
  selection: Selection;
  onDone: () => void;
  onClear: () => void;
}

/** Shown while trades are checked: pick tags (or create one) and add them to every selected trade at once. */
export function BulkTagBar({ selection, onDone, onClear }: BulkTagBarProps) {
  const tags = useTags();
  const createTag = useTagCreator();
  const bulk = useBulkTag();
  const [tagIds, setTagIds] = useState<string[]>([]);
  const count = selection.size;
  const tooMany = count > JOURNAL_LIMITS.bulkTrades;

  const apply = () =>
    bulk.mutate(bulkTagBody(selection, tagIds), {
      onSuccess: (result) => {
        toast.success(
          `Tagged ${plural(result.data.trades, 'trade')} with ${plural(tagIds.length, 'tag')} (${plural(result.data.added, 'new tag')} added).`,
        );
        setTagIds([]);
        onDone();
      },
      onError: (error) => toast.error(failureMessage(error, 'The trades could not be tagged.')),
    });

  return (
    <section className="bulk-tag-bar" aria-label="Tag selected trades">
      <strong className="text-nowrap" role="status">
        {plural(count, 'trade')} selected
      </strong>
      <div className="bulk-tag-picker">
        <TagPicker
          tags={tags.data ?? []}
          value={tagIds}
          onChange={setTagIds}
          label="Tags for the selected trades"
          disabled={bulk.isPending}
          onCreate={createTag}
        />
      </div>
      <div className="d-flex gap-2">
        <CButton color="primary" size="sm" disabled={tagIds.length === 0 || bulk.isPending || tooMany} onClick={apply}>
          {bulk.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
          Tag selected
        </CButton>
        <CButton color="secondary" variant="ghost" size="sm" disabled={bulk.isPending} onClick={onClear}>
          Clear selection
        </CButton>
      </div>
      {tooMany && (
        <p className="text-danger small mb-0 w-100" role="alert">
          Tag at most {JOURNAL_LIMITS.bulkTrades} trades at once: clear part of the selection.
        </p>
      )}
    </section>
  );
}
