import { CBadge, CButton, CCloseButton, CFormInput, CFormSelect } from '@coreui/react';
import { TAG_KINDS, type AccountItem, type Playbook, type TagItem } from '@pipsense/contract';
import { formatInstrument } from '../../../components/data/format';
import { TAG_KIND_STYLE } from '../../../lib/tags-query';
import {
  hasFilters,
  NO_FILTERS,
  RANGE_LABELS,
  RANGE_PRESETS,
  rangeProblem,
  type OverviewFilters,
  type Range,
} from '../model/overview-filters';

interface FilterBarProps {
  filters: OverviewFilters;
  onChange: (next: OverviewFilters) => void;
  accounts: readonly AccountItem[];
  instruments: readonly string[];
  tags: readonly TagItem[];
  playbooks: readonly Playbook[];
}

/** An imported MetaTrader account reads as its login and server; its value stays the account key (the trades'). */
const accountName = (a: AccountItem) => (a.platform === 'metatrader' ? `${a.login} · ${a.server}` : a.oandaAccountId);
const accountLabel = (a: AccountItem) => `${a.alias ? `${a.alias} · ` : ''}${accountName(a)} (${a.mode})`;

/** The overview's slicers: date range with presets, account, instrument, tags, rule breaks, playbook and review. */
export function FilterBar({ filters, onChange, accounts, instruments, tags, playbooks }: FilterBarProps) {
  const set = (patch: Partial<OverviewFilters>) => onChange({ ...filters, ...patch });
  const problem = rangeProblem(filters);
  const chosen = filters.tags.map((id) => tags.find((t) => t.id === id) ?? { id, name: 'Unknown tag', kind: null });
  const choosable = tags.filter((t) => !filters.tags.includes(t.id));
  const knownAccount = filters.accountId === '' || accounts.some((a) => a.oandaAccountId === filters.accountId);
  const knownPlaybook = filters.playbookId === '' || playbooks.some((p) => p.id === filters.playbookId);
  const instrumentOptions = [...new Set([...instruments, ...(filters.instrument ? [filters.instrument] : [])])].sort();

  return (
    <div className="overview-filters" role="search" aria-label="Overview filters">
      <div className="overview-filters-row">
        <CFormSelect
          size="sm"
          aria-label="Date range"
          value={filters.range}
          onChange={(e) => {
            const range = e.target.value as Range;
            set({ range, from: range === 'custom' ? filters.from : '', to: range === 'custom' ? filters.to : '' });
          }}
        >
          {[...RANGE_PRESETS, 'custom' as const].map((r) => (
            <option key={r} value={r}>
              {RANGE_LABELS[r]}
            </option>
          ))}
        </CFormSelect>
        {filters.range === 'custom' && (
          <>
            <CFormInput
              size="sm"
              type="date"
              aria-label="From date"
              value={filters.from}
              invalid={problem !== null}
              onChange={(e) => set({ from: e.target.value })}
            />
            <CFormInput
              size="sm"
              type="date"
              aria-label="To date"
              value={filters.to}
              invalid={problem !== null}
              onChange={(e) => set({ to: e.target.value })}
            />
          </>
        )}
        <CFormSelect
          size="sm"
          aria-label="Account"
          value={filters.accountId}
          onChange={(e) => set({ accountId: e.target.value })}
        >
          <option value="">All accounts</option>
          {accounts.map((a) => (
            <option key={a.id} value={a.oandaAccountId}>
              {accountLabel(a)}
            </option>
          ))}
          {!knownAccount && <option value={filters.accountId}>{filters.accountId}</option>}
        </CFormSelect>
        <CFormSelect
          size="sm"
          aria-label="Instrument"
          value={filters.instrument}
          onChange={(e) => set({ instrument: e.target.value })}
        >
          <option value="">All instruments</option>
          {instrumentOptions.map((i) => (
            <option key={i} value={i}>
              {formatInstrument(i)}
            </option>
          ))}
        </CFormSelect>
        <CFormSelect
          size="sm"
          aria-label="Add a tag filter"
          value=""
          disabled={choosable.length === 0}
          onChange={(e) => e.target.value && set({ tags: [...filters.tags, e.target.value] })}
        >
          <option value="">{tags.length === 0 ? 'No tags yet' : 'Filter by tag…'}</option>
          {TAG_KINDS.map((kind) => {
            const ofKind = choosable.filter((t) => t.kind === kind);
            return ofKind.length === 0 ? null : (
              <optgroup key={kind} label={`${TAG_KIND_STYLE[kind].label}s`}>
                {ofKind.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </CFormSelect>
        <CFormSelect
          size="sm"
          aria-label="Rule breaks"
          value={filters.ruleBreak}
          onChange={(e) => set({ ruleBreak: e.target.value as OverviewFilters['ruleBreak'] })}
        >
          <option value="">Rule breaks: all</option>
          <option value="true">Broke a rule</option>
          <option value="false">Kept the rules</option>
        </CFormSelect>
        <CFormSelect
          size="sm"
          aria-label="Playbook"
          value={filters.playbookId}
          onChange={(e) => set({ playbookId: e.target.value })}
        >
          <option value="">All playbooks</option>
          {playbooks.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
          {!knownPlaybook && <option value={filters.playbookId}>Deleted playbook</option>}
        </CFormSelect>
        <CFormSelect
          size="sm"
          aria-label="Playbook review"
          value={filters.playbookReview}
          onChange={(e) => set({ playbookReview: e.target.value as OverviewFilters['playbookReview'] })}
        >
          <option value="">Review: any</option>
          <option value="followed">Followed every rule</option>
          <option value="broke">Broke a playbook rule</option>
          <option value="unreviewed">Not reviewed yet</option>
        </CFormSelect>
        {hasFilters(filters) && (
          <CButton size="sm" color="secondary" variant="ghost" onClick={() => onChange(NO_FILTERS)}>
            Clear filters
          </CButton>
        )}
      </div>
      {chosen.length > 0 && (
        <ul className="overview-filter-tags list-unstyled mb-0" aria-label="Tag filters (any of them)">
          {chosen.map((tag) => (
            <li key={tag.id}>
              <CBadge
                color={tag.kind ? TAG_KIND_STYLE[tag.kind].color : 'secondary'}
                shape="rounded-pill"
                className="overview-filter-tag"
              >
                {tag.name}
                <CCloseButton
                  white
                  aria-label={`Remove the tag filter ${tag.name}`}
                  onClick={() => set({ tags: filters.tags.filter((id) => id !== tag.id) })}
                />
              </CBadge>
            </li>
          ))}
        </ul>
      )}
      {problem && (
        <div className="text-danger small" role="alert">
          {problem}
        </div>
      )}
    </div>
  );
}
