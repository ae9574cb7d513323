import { useId, useState, type FormEvent } from 'react';
import { CBadge, CButton, CCol, CForm, CFormInput, CFormLabel, CFormSelect, CRow } from '@coreui/react';
import { TRADE_SORTS, type TradeSortField } from '@pipsense/contract';
import { TagPicker } from '../../../components/journal/tag-picker';
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
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('from')} className="small mb-1">
              Opened from
            </CFormLabel>
            <CFormInput
              id={field('from')}
              type="date"
              size="sm"
              value={draft.from}
              max={draft.to || undefined}
              invalid={inverted}
              onChange={(e) => set('from', e.target.value)}
            />
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('to')} className="small mb-1">
              Opened to
            </CFormLabel>
            <CFormInput
              id={field('to')}
              type="date"
              size="sm"
              value={draft.to}
              min={draft.from || undefined}
              invalid={inverted}
              onChange={(e) => set('to', e.target.value)}
            />
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('instrument')} className="small mb-1">
              Instrument
            </CFormLabel>
            <CFormInput
              id={field('instrument')}
              size="sm"
              placeholder="EUR_USD"
              value={draft.instrument}
              onChange={(e) => set('instrument', e.target.value)}
            />
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('side')} className="small mb-1">
              Side
            </CFormLabel>
            <CFormSelect
              id={field('side')}
              size="sm"
              value={draft.side}
              onChange={(e) => set('side', e.target.value as TradeView['side'])}
            >
              <option value="">Any side</option>
              <option value="long">Long</option>
              <option value="short">Short</option>
            </CFormSelect>
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('outcome')} className="small mb-1">
              Outcome
            </CFormLabel>
            <CFormSelect
              id={field('outcome')}
              size="sm"
              value={draft.outcome}
              onChange={(e) => set('outcome', e.target.value as TradeView['outcome'])}
            >
              <option value="">Any outcome</option>
              <option value="win">Win</option>
              <option value="loss">Loss</option>
              <option value="breakeven">Break-even</option>
            </CFormSelect>
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('state')} className="small mb-1">
              State
            </CFormLabel>
            <CFormSelect
              id={field('state')}
              size="sm"
              value={draft.state}
              onChange={(e) => set('state', e.target.value as TradeView['state'])}
            >
              <option value="">Open and closed</option>
              <option value="OPEN">Open</option>
              <option value="CLOSED">Closed</option>
            </CFormSelect>
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('account')} className="small mb-1">
              Account
            </CFormLabel>
            <CFormInput
              id={field('account')}
              size="sm"
              placeholder="Account ID"
              value={draft.accountId}
              onChange={(e) => set('accountId', e.target.value)}
            />
          </CCol>
          <CCol xs={6} md={3} xl={2}>
            <CFormLabel htmlFor={field('note')} className="small mb-1">
              Note
            </CFormLabel>
            <CFormSelect
              id={field('note')}
              size="sm"
              value={draft.hasNote}
              onChange={(e) => set('hasNote', e.target.value as TradeView['hasNote'])}
            >
              <option value="">With or without</option>
              <option value="true">Has a note</option>
              <option value="false">No note</option>
            </CFormSelect>
          </CCol>
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
