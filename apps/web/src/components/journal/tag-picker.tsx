import { useId, useState } from 'react';
import { CButton, CFormInput, CFormSelect, CSpinner } from '@coreui/react';
import { JOURNAL_LIMITS, TAG_KINDS, type TagKind, type TradeTag } from '@pipsense/contract';
import { TAG_KIND_STYLE } from '../../lib/tags-query';
import { TagBadge } from './tag-badge';

/** Most suggestions listed at once; typing narrows them. */
const MAX_SUGGESTIONS = 8;

interface TagPickerProps {
  /** Every tag the trader has. */
  tags: readonly TradeTag[];
  /** Ids of the chosen tags. */
  value: readonly string[];
  onChange: (ids: string[]) => void;
  /** Creates a tag from the typed name (POST journal/create_tag) and resolves with it; without it, pick only. */
  onCreate?: (name: string, kind: TagKind) => Promise<TradeTag>;
  /** 'Tags': names the field for screen readers. */
  label: string;
  disabled?: boolean;
  /** Most tags that may be chosen. */
  max?: number;
}

const key = (name: string) => name.trim().toLocaleLowerCase();

/**
 * Picks tags: the chosen ones as removable badges, a search box listing the matching tags to add, and — when the
 * typed name is new — a button that creates it as a setup, mistake or emotion tag and adds it.
 */
export function TagPicker({
  tags,
  value,
  onChange,
  onCreate,
  label,
  disabled = false,
  max = JOURNAL_LIMITS.tagsPerTrade,
}: TagPickerProps) {
  const inputId = useId();
  const listId = useId();
  const [text, setText] = useState('');
  const [kind, setKind] = useState<TagKind>('setup');
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState(false);
  const chosen = value.map((id) => tags.find((tag) => tag.id === id)).filter((tag) => tag !== undefined);
  const full = value.length >= max;
  const typed = key(text);
  const suggestions = tags
    .filter((tag) => !value.includes(tag.id) && (typed === '' || key(tag.name).includes(typed)))
    .slice(0, MAX_SUGGESTIONS);
  const exists = tags.some((tag) => key(tag.name) === typed && tag.kind === kind);
  const canCreate = onCreate !== undefined && typed !== '' && !exists && !full;

  const add = (id: string) => {
    if (!value.includes(id) && !full) onChange([...value, id]);
    setText('');
  };
  const create = async () => {
    if (!onCreate || !canCreate) return;
    setCreating(true);
    try {
      const tag = await onCreate(text.trim(), kind);
      onChange([...value, tag.id]);
      setText('');
    } catch {
      // The caller reports the failure (a toast); the typed name stays so it can be corrected.
    } finally {
      setCreating(false);
    }
  };

  return (
    <div className="tag-picker">
      {chosen.length > 0 && (
        <div className="tag-badges mb-2" aria-label={`${label} chosen`}>
          {chosen.map((tag) => (
            <TagBadge
              key={tag.id}
              tag={tag}
              onRemove={disabled ? undefined : () => onChange(value.filter((id) => id !== tag.id))}
            />
          ))}
        </div>
      )}
      <div className="d-flex gap-2 flex-wrap">
        <CFormInput
          id={inputId}
          className="tag-picker-input"
          size="sm"
          value={text}
          disabled={disabled || full}
          placeholder={full ? `At most ${max} tags` : 'Find or create a tag…'}
          aria-label={label}
          aria-controls={listId}
          aria-expanded={open}
          maxLength={JOURNAL_LIMITS.tagName}
          onFocus={() => setOpen(true)}
          onChange={(event) => {
            setText(event.target.value);
            setOpen(true);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setOpen(false);
            if (event.key !== 'Enter') return;
            event.preventDefault();
            const exact = suggestions.find((tag) => key(tag.name) === typed);
            if (exact) add(exact.id);
            else if (canCreate) void create();
          }}
        />
        {onCreate && (
          <>
            <CFormSelect
              size="sm"
              className="tag-picker-kind"
              aria-label="Kind of new tag"
              value={kind}
              disabled={disabled}
              onChange={(event) => setKind(event.target.value as TagKind)}
            >
              {TAG_KINDS.map((k) => (
                <option key={k} value={k}>
                  {TAG_KIND_STYLE[k].label}
                </option>
              ))}
            </CFormSelect>
            <CButton
              size="sm"
              color="primary"
              variant="outline"
              disabled={disabled || !canCreate || creating}
              onClick={() => void create()}
            >
              {creating && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
              {text.trim() ? `Create “${text.trim()}”` : 'Create tag'}
            </CButton>
          </>
        )}
      </div>
      {open && !disabled && suggestions.length > 0 && (
        <div id={listId} className="tag-picker-options" role="group" aria-label={`${label} to add`}>
          {suggestions.map((tag) => (
            <button
              key={tag.id}
              type="button"
              className="tag-picker-option"
              disabled={full}
              aria-label={`Add tag ${tag.name} (${TAG_KIND_STYLE[tag.kind].label})`}
              onClick={() => add(tag.id)}
            >
              <TagBadge tag={tag} />
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
