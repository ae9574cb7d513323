import { useId, useState } from 'react';
import { CButton, CButtonGroup, CFormLabel, CFormTextarea, CSpinner } from '@coreui/react';
import { toast } from 'react-toastify';
import { JOURNAL_LIMITS, type TradeNote } from '@pipsense/contract';
import { LoadErrorState } from '../../../components/data/data-states';
import { NoteText } from '../../../components/journal/note-text';
import { RatingStars } from '../../../components/journal/rating-stars';
import { TagPicker } from '../../../components/journal/tag-picker';
import { failureMessage } from '../../../lib/api';
import { useTags } from '../../../lib/tags-query';
import { useTagCreator } from '../../../components/journal/use-tag-creator';
import { useSaveTradeNote, useTradeNote } from '../api/journal-api';

interface Draft {
  note: string;
  rating: number | null;
  tagIds: string[];
}

const draftOf = (saved: TradeNote): Draft => ({
  note: saved.note,
  rating: saved.rating,
  tagIds: saved.tags.map((tag) => tag.id),
});
const sameDraft = (a: Draft, b: Draft) =>
  a.note === b.note && a.rating === b.rating && a.tagIds.join() === b.tagIds.join();

function savedAt(updatedAt: string | null) {
  if (!updatedAt) return 'Nothing written yet';
  return `Saved ${new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(Date.parse(updatedAt))}`;
}

function JournalForm({ accountId, tradeId, saved }: { accountId: string; tradeId: string; saved: TradeNote }) {
  const id = useId();
  const tags = useTags();
  const createTag = useTagCreator();
  const save = useSaveTradeNote(accountId, tradeId);
  const [draft, setDraft] = useState(() => draftOf(saved));
  const [preview, setPreview] = useState(false);
  const dirty = !sameDraft(draft, draftOf(saved));
  const tooLong = draft.note.length > JOURNAL_LIMITS.note;
  // Tags picked here may not be in the tag list yet (a just-created one); the saved ones always name themselves.
  const known = [...(tags.data ?? [])];
  for (const tag of saved.tags)
    if (!known.some((k) => k.id === tag.id)) known.push({ ...tag, trades: 0, createdAt: '', updatedAt: '' });

  const submit = () =>
    save.mutate(draft, {
      onSuccess: (result) => {
        setDraft(draftOf(result.data));
        toast.success(`Journal saved for trade #${tradeId}.`);
      },
      onError: (error) => toast.error(failureMessage(error, 'The journal could not be saved.')),
    });

  let status;
  if (save.isPending) status = 'Saving…';
  else if (dirty) status = 'Unsaved changes';
  else status = savedAt(saved.updatedAt);

  return (
    <form
      className="trade-journal-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooLong && dirty) submit();
      }}
    >
      <div className="d-flex justify-content-between align-items-center mb-1">
        <CFormLabel htmlFor={`${id}-note`} className="mb-0 small fw-semibold text-body-secondary">
          Note
        </CFormLabel>
        <CButtonGroup size="sm" role="group" aria-label="Note view">
          <CButton
            color="secondary"
            variant={preview ? 'outline' : undefined}
            aria-pressed={!preview}
            onClick={() => setPreview(false)}
          >
            Write
          </CButton>
          <CButton
            color="secondary"
            variant={preview ? undefined : 'outline'}
            aria-pressed={preview}
            onClick={() => setPreview(true)}
          >
            Preview
          </CButton>
        </CButtonGroup>
      </div>
      {preview ? (
        <div className="note-preview" aria-label="Note preview">
          {draft.note.trim() ? (
            <NoteText text={draft.note} />
          ) : (
            <span className="text-body-secondary">No note yet.</span>
          )}
        </div>
      ) : (
        <CFormTextarea
          id={`${id}-note`}
          rows={5}
          value={draft.note}
          invalid={tooLong}
          placeholder="Why you took the trade, how you managed it, what you learned (markdown is kept as text)"
          disabled={save.isPending}
          onChange={(event) => setDraft((d) => ({ ...d, note: event.target.value }))}
          feedbackInvalid={`The note is ${draft.note.length.toLocaleString()} characters: keep it to ${JOURNAL_LIMITS.note.toLocaleString()}.`}
        />
      )}
      <div className="mt-3">
        <span className="form-label small fw-semibold text-body-secondary d-block mb-1">Rating</span>
        <RatingStars
          value={draft.rating}
          label="Trade rating"
          disabled={save.isPending}
          onChange={(rating) => setDraft((d) => ({ ...d, rating }))}
        />
      </div>
      <div className="mt-3">
        <span className="form-label small fw-semibold text-body-secondary d-block mb-1">Tags</span>
        <TagPicker
          tags={known}
          value={draft.tagIds}
          onChange={(tagIds) => setDraft((d) => ({ ...d, tagIds }))}
          label="Trade tags"
          disabled={save.isPending}
          onCreate={createTag}
        />
      </div>
      <div className="d-flex align-items-center gap-3 mt-3">
        <CButton type="submit" color="primary" disabled={!dirty || tooLong || save.isPending}>
          {save.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
          Save journal
        </CButton>
        <span className={`small ${dirty ? 'text-warning-emphasis' : 'text-body-secondary'}`} role="status">
          {status}
        </span>
      </div>
    </form>
  );
}

/** The trade's journal in its details modal: note (markdown kept as text), 1–5 rating and tags, saved together. */
export function TradeJournal({ accountId, tradeId }: { accountId: string; tradeId: string }) {
  const note = useTradeNote(accountId, tradeId);
  let body;
  if (note.isPending)
    body = (
      <div className="d-flex align-items-center gap-2 text-body-secondary" role="status">
        <CSpinner size="sm" aria-hidden="true" /> Loading the journal…
      </div>
    );
  else if (note.isError)
    body = <LoadErrorState what="journal" message={note.error.message} onRetry={() => void note.refetch()} />;
  else body = <JournalForm accountId={accountId} tradeId={tradeId} saved={note.data} />;
  return (
    <section className="trade-journal mb-4" aria-label="Journal">
      <h3 className="h6 fw-semibold mb-2">Journal</h3>
      {body}
    </section>
  );
}
