import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { CBadge, CButton, CCard, CCardBody, CCardHeader, CCol, CFormInput, CRow, CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilPencil, cilTrash } from '@coreui/icons';
import { JOURNAL_LIMITS, TAG_KINDS, type TagItem, type TagKind } from '@pipsense/contract';
import { LoadErrorState } from '../../../components/data/data-states';
import { DeleteDialog } from '../../../components/forms/delete-dialog';
import { InlineRename } from '../../../components/forms/inline-rename';
import { failureMessage } from '../../../lib/api';
import { TAG_KIND_STYLE, useTags } from '../../../lib/tags-query';
import { useCreateTag, useDeleteTag, useRenameTag } from '../api/journal-api';
import { plural } from '../model/plural';
import '../journal.css';

const KIND_HINT: Record<TagKind, string> = {
  setup: 'The setups and strategies you trade: the overview shows which of them pay.',
  mistake: 'What went wrong: the overview shows what each mistake costs.',
  emotion: 'How you felt when you took the trade.',
};

/** The form's own check, the server's rule in words; the server still has the last word (duplicates). */
function nameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Enter a name.';
  if (trimmed.length > JOURNAL_LIMITS.tagName)
    return `A tag name must be at most ${JOURNAL_LIMITS.tagName} characters.`;
  return null;
}

function RenameForm({ tag, onDone }: { tag: TagItem; onDone: () => void }) {
  const rename = useRenameTag();
  return (
    <InlineRename
      name={tag.name}
      save={(name) => rename.mutateAsync({ id: tag.id, name })}
      pending={rename.isPending}
      failure="The tag could not be renamed."
      check={nameProblem}
      className="tag-rename"
      onDone={onDone}
    />
  );
}

function TagRow({ tag, onDelete }: { tag: TagItem; onDelete: (tag: TagItem) => void }) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="tag-row">
      {editing ? (
        <RenameForm tag={tag} onDone={() => setEditing(false)} />
      ) : (
        <>
          <CBadge color={TAG_KIND_STYLE[tag.kind].color} shape="rounded-pill" className="tag-name fw-normal">
            {tag.name}
          </CBadge>
          <span className="tag-count text-body-secondary small">{plural(tag.trades, 'trade')}</span>
          <span className="tag-actions">
            <CButton
              size="sm"
              color="secondary"
              variant="ghost"
              aria-label={`Rename ${tag.name}`}
              onClick={() => setEditing(true)}
            >
              <CIcon icon={cilPencil} />
            </CButton>
            <CButton
              size="sm"
              color="danger"
              variant="ghost"
              aria-label={`Delete ${tag.name}`}
              onClick={() => onDelete(tag)}
            >
              <CIcon icon={cilTrash} />
            </CButton>
          </span>
        </>
      )}
    </li>
  );
}

function CreateForm({ kind }: { kind: TagKind }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateTag();
  const label = TAG_KIND_STYLE[kind].label.toLowerCase();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setError(problem);
    create.mutate(
      { kind, name: name.trim() },
      {
        onSuccess: () => {
          toast.success(`Added the ${label} “${name.trim()}”`);
          setName('');
        },
        onError: (e) => setError(failureMessage(e, 'The tag could not be created.')),
      },
    );
  };
  return (
    <form className="tag-create" onSubmit={submit} aria-label={`New ${label} tag`}>
      <div className="tag-create-row">
        <CFormInput
          size="sm"
          value={name}
          placeholder={`New ${label}…`}
          aria-label={`New ${label} name`}
          invalid={error !== null}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
        <CButton type="submit" size="sm" color="primary" disabled={create.isPending}>
          Add
        </CButton>
      </div>
      {error && (
        <div className="tag-error text-danger small" role="alert">
          {error}
        </div>
      )}
    </form>
  );
}

function DeleteTag({ tag, onClose }: { tag: TagItem; onClose: () => void }) {
  const remove = useDeleteTag();
  const confirm = () =>
    remove.mutate(tag.id, {
      onSuccess: () => {
        toast.success(`Deleted “${tag.name}”`);
        onClose();
      },
    });
  return (
    <DeleteDialog
      title={`Delete “${tag.name}”?`}
      confirm="Delete tag"
      pending={remove.isPending}
      error={remove.error}
      failure="The tag could not be deleted."
      onConfirm={confirm}
      onClose={onClose}
    >
      {tag.trades === 0
        ? 'No trade carries this tag.'
        : `It is removed from ${plural(tag.trades, 'trade')}; their notes and other tags stay.`}
    </DeleteDialog>
  );
}

/** The tag manager: setups, mistakes and emotions with their trade counts; add, rename, delete. */
export function TagsPage() {
  const tags = useTags();
  const [deleting, setDeleting] = useState<TagItem | null>(null);
  if (tags.isError)
    return <LoadErrorState what="tags" message={tags.error.message} onRetry={() => void tags.refetch()} />;
  if (!tags.data)
    return (
      <div className="cal-loading" role="status" aria-label="Loading tags">
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );
  const data = tags.data;
  return (
    <div className="journal-tags">
      <CRow className="g-3">
        {TAG_KINDS.map((kind) => {
          const ofKind = data
            .filter((t) => t.kind === kind)
            .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
          const titleId = `tags-${kind}`;
          return (
            <CCol key={kind} xs={12} lg={4}>
              <CCard className="h-100" role="region" aria-labelledby={titleId}>
                <CCardHeader className="tag-kind-head">
                  <h2 id={titleId} className="h6 mb-0">
                    {TAG_KIND_STYLE[kind].label}s
                  </h2>
                  <span className="text-body-secondary small">{plural(ofKind.length, 'tag')}</span>
                </CCardHeader>
                <CCardBody>
                  <p className="text-body-secondary small">{KIND_HINT[kind]}</p>
                  {ofKind.length === 0 ? (
                    <p className="text-body-tertiary small">No {TAG_KIND_STYLE[kind].label.toLowerCase()} tags yet.</p>
                  ) : (
                    <ul className="tag-list list-unstyled" aria-label={`${TAG_KIND_STYLE[kind].label} tags`}>
                      {ofKind.map((tag) => (
                        <TagRow key={tag.id} tag={tag} onDelete={setDeleting} />
                      ))}
                    </ul>
                  )}
                  <CreateForm kind={kind} />
                </CCardBody>
              </CCard>
            </CCol>
          );
        })}
      </CRow>
      {deleting && <DeleteTag tag={deleting} onClose={() => setDeleting(null)} />}
    </div>
  );
}
