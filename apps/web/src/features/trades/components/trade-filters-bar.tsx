import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { CBadge, CButton, CCol, CForm, CFormInput, CFormLabel, CFormSelect, CRow } from '@coreui/react';
import { COACH_PATTERNS, PATTERN_LABELS, TRADE_SORTS, type TradeSortField } from '@pipsense/contract';
import { useQuery } from '@tanstack/react-query';
import { TagPicker } from '../../../components/journal/tag-picker';
import { playbooksQuery } from '../../../lib/playbooks-query';
import { useTags } from '../../../lib/tags-query';
import {
  activeFilterCount,
  EMPTY_VIEW,
  invertedRange,
  normaliseInstrument,
  type TradeView,
} from '../model/trade-filters';

/** How each sort reads in the Sort by control. */
const SORT_OPTIONS: Record<TradeSortField, Record<'asc' | 'desc', string>> = {
  openTime: { desc: 'Open time, newest first', asc: 'Open time, oldest first' },
  closeTime: { desc: 'Close time, newest first', asc: 'Close time, oldest first' },
  realizedPL: { desc: 'P/L, highest first', asc: 'P/L, lowest first' },
  instrument: { asc: 'Instrument, A–Z', desc: 'Instrument, Z–A' },
};

/** The filters typed in. */
const TEXTS = [
  { name: 'instrument', label: 'Instrument', placeholder: 'EUR_USD' },
  { name: 'accountId', label: 'Account', placeholder: 'Account ID' },
] as const;

/** The filters chosen from a short list (the empty value: no filter). */
const CHOICES: readonly {
  name: 'side' | 'outcome' | 'state' | 'hasNote' | 'ruleBreak' | 'playbookReview' | 'pattern';
  label: string;
  options: readonly (readonly [string, string])[];
}[] = [
  {
    name: 'side',
    label: 'Side',
    options: [
      ['', 'Any side'],
      ['long', 'Long'],
      ['short', 'Short'],
    ],
  },
  {
    name: 'outcome',
    label: 'Outcome',
    options: [
      ['', 'Any outcome'],
      ['win', 'Win'],
      ['loss', 'Loss'],
      ['breakeven', 'Break-even'],
    ],
  },
  {
    name: 'state',
    label: 'State',
    options: [
      ['', 'Open and closed'],
      ['OPEN', 'Open'],
      ['CLOSED', 'Closed'],
    ],
  },
  {
    name: 'hasNote',
    label: 'Note',
    options: [
      ['', 'With or without'],
      ['true', 'Has a note'],
      ['false', 'No note'],
    ],
  },
  {
    name: 'ruleBreak',
    label: 'Rule breaks',
    options: [
      ['', 'All'],
      ['true', 'Broke a rule'],
      ['false', 'Kept the rules'],
    ],
  },
  {
    name: 'playbookReview',
    label: 'Review',
    options: [
      ['', 'Any review'],
      ['followed', 'Followed'],
      ['broke', 'Broke'],
      ['unreviewed', 'Unreviewed'],
    ],
  },
  {
    name: 'pattern',
    label: 'Pattern',
    options: [['', 'Any pattern'], ...COACH_PATTERNS.map((id) => [id, PATTERN_LABELS[id]] as const)],
  },
];

/** One labelled control of the form: two a row on phones, four on tablets, six on wide screens. */
function FilterField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <CCol xs={6} md={3} xl={2}>
      <CFormLabel htmlFor={id} className="small mb-1">
        {label}
      </CFormLabel>
      {children}
    </CCol>
  );
}

interface TradeFiltersBarProps {
  view: TradeView;
  /** Puts the edited view in the URL (a new history entry). */
  onApply: (view: TradeView) => void;
}

/**
 * The Trades list's filters and sort. Edits are a draft until 'Apply filters' (or Enter), so a half-typed search
 * never reloads the list; 'Clear filters' goes back to the whole list. On phones the form folds behind a toggle that
 * counts the filters in use.
 */
export function TradeFiltersBar({ view, onApply }: TradeFiltersBarProps) {
  const id = useId();
  const tags = useTags();
  const playbooks = useQuery(playbooksQuery());
  const [draft, setDraft] = useState(view);
  const [open, setOpen] = useState(false);
  const set = <K extends keyof TradeView>(name: K, value: TradeView[K]) => setDraft((d) => ({ ...d, [name]: value }));
  const inverted = invertedRange(draft);
  const active = activeFilterCount(view);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (inverted) return;
    onApply({
      ...draft,
      instrument: normaliseInstrument(draft.instrument),
      q: draft.q.trim(),
      accountId: draft.accountId.trim(),
    });
  };
  const clear = () => {
    const cleared = { ...EMPTY_VIEW, sort: view.sort, order: view.order };
    setDraft(cleared);
    onApply(cleared);
  };
  const field = (name: string) => `${id}-${name}`;

  return (
    <section className="trade-filters" aria-label="Trade filters">
      <div className="trade-filters-toggle d-md-none">
        <CButton
          color="secondary"
          variant="outline"
          size="sm"
          aria-expanded={open}
          aria-controls={field('form')}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? 'Hide filters' : 'Filters'}
          {active > 0 && (
            <CBadge color="primary" shape="rounded-pill" className="ms-2">
              {active}
            </CBadge>
          )}
        </CButton>
      </div>
      <CForm id={field('form')} className={`trade-filters-body${open ? ' open' : ''}`} onSubmit={submit} noValidate>
        <CRow className="g-2">
          {(['from', 'to'] as const).map((name) => (
            <FilterField key={name} id={field(name)} label={name === 'from' ? 'Opened from' : 'Opened to'}>
              {/* The browser's own date picker (CoreUI's is in its paid package), styled as a CoreUI input. */}
              <CFormInput
                id={field(name)}
                type="date"
                size="sm"
                value={draft[name]}
                // Each day bounds the other, so the picker offers no inverted range.
                {...(name === 'from' ? { max: draft.to || undefined } : { min: draft.from || undefined })}
                invalid={inverted}
                onChange={(e) => set(name, e.target.value)}
              />
            </FilterField>
          ))}
          {TEXTS.map(({ name, label, placeholder }) => (
            <FilterField key={name} id={field(name)} label={label}>
              <CFormInput
                id={field(name)}
                size="sm"
                placeholder={placeholder}
                value={draft[name]}
                onChange={(e) => set(name, e.target.value)}
              />
            </FilterField>
          ))}
          {CHOICES.map(({ name, label, options }) => (
            <FilterField key={name} id={field(name)} label={label}>
              <CFormSelect
                id={field(name)}
                size="sm"
                value={draft[name]}
                onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))}
              >
                {options.map(([value, text]) => (
                  <option key={value} value={value}>
                    {text}
                  </option>
                ))}
              </CFormSelect>
            </FilterField>
          ))}
          <FilterField id={field('playbookId')} label="Playbook">
            <CFormSelect
              id={field('playbookId')}
              size="sm"
              value={draft.playbookId}
              onChange={(e) => set('playbookId', e.target.value)}
            >
              <option value="">Any playbook</option>
              {playbooks.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
              {draft.playbookId && !playbooks.data?.some((p) => p.id === draft.playbookId) && (
                <option value={draft.playbookId}>{playbooks.data ? 'Deleted playbook' : 'Loading…'}</option>
              )}
            </CFormSelect>
          </FilterField>
          <CCol xs={12} md={6} xl={4}>
            <CFormLabel htmlFor={field('q')} className="small mb-1">
              Search notes
            </CFormLabel>
            <CFormInput
              id={field('q')}
              type="search"
              size="sm"
              placeholder="Words in your notes"
              maxLength={200}
              value={draft.q}
              onChange={(e) => set('q', e.target.value)}
            />
          </CCol>
          <CCol xs={12} md={6} xl={4}>
            <span className="form-label small mb-1 d-block">Tags (any of)</span>
            <TagPicker
              tags={tags.data ?? []}
              value={draft.tags}
              onChange={(ids) => set('tags', ids)}
              label="Filter by tag"
            />
          </CCol>
          <CCol xs={12} md={6} xl={4}>
            <CFormLabel htmlFor={field('sort')} className="small mb-1">
              Sort by
            </CFormLabel>
            <CFormSelect
              id={field('sort')}
              size="sm"
              value={`${draft.sort}:${draft.order}`}
              onChange={(e) => {
                const [sort, order] = e.target.value.split(':') as [TradeSortField, 'asc' | 'desc'];
                setDraft((d) => ({ ...d, sort, order }));
              }}
            >
              {TRADE_SORTS.flatMap((sort) =>
                (['desc', 'asc'] as const).map((order) => (
                  <option key={`${sort}:${order}`} value={`${sort}:${order}`}>
                    {SORT_OPTIONS[sort][order]}
                  </option>
                )),
              )}
            </CFormSelect>
          </CCol>
        </CRow>
        {inverted && (
          <p className="text-danger small mt-2 mb-0" role="alert">
            The ‘from’ day is after the ‘to’ day: pick a from day on or before the to day.
          </p>
        )}
        <div className="d-flex flex-wrap gap-2 mt-2">
          <CButton type="submit" color="primary" size="sm" disabled={inverted}>
            Apply filters
          </CButton>
          <CButton type="button" color="secondary" variant="outline" size="sm" onClick={clear}>
            Clear filters
          </CButton>
        </div>
      </CForm>
    </section>
  );
}
