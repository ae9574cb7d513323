import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import {
  CAlert,
  CBadge,
  CButton,
  CFormLabel,
  CFormTextarea,
  CModal,
  CModalBody,
  CModalHeader,
  CModalTitle,
  CSpinner,
} from '@coreui/react';
import { JOURNAL_LIMITS, type JournalDay, type TradeListItem } from '@pipsense/contract';
import { AttachmentsPanel } from '../../../components/attachments/attachments-panel';
import { LoadErrorState } from '../../../components/data/data-states';
import { formatInstrument, formatSignedMoney, plClass } from '../../../components/data/format';
import { failureMessage } from '../../../lib/api';
import { TAG_KIND_STYLE } from '../../../lib/tags-query';
import { useCalendarMonth, useDay, useUpdateDay } from '../api/journal-api';
import { dayLabel, totalOf } from '../model/calendar-grid';
import { plural } from '../model/plural';
import { figureClass, figureText } from '../model/pl-text';

const MOODS = ['Awful', 'Bad', 'Okay', 'Good', 'Great'] as const;

const timeOfDay = (iso: string | null, timeZone: string) =>
  iso ? new Intl.DateTimeFormat(undefined, { timeStyle: 'short', timeZone }).format(Date.parse(iso)) : '';

function TradeRow({ trade, timeZone }: { trade: TradeListItem; timeZone: string }) {
  const side = trade.initialUnits.trim().startsWith('-') ? 'Short' : 'Long';
  return (
    <li className="day-trade">
      <div className="day-trade-main">
        <span className="fw-semibold">{formatInstrument(trade.instrument)}</span>
        <CBadge color={side === 'Long' ? 'success' : 'danger'} className="day-trade-side">
          {side}
        </CBadge>
        <span className="text-body-secondary small">
          #{trade.tradeId} · closed {timeOfDay(trade.closeTime, timeZone)}
        </span>
        <span className={`day-trade-pl ${plClass(trade.realizedPL)}`}>{formatSignedMoney(trade.realizedPL)}</span>
      </div>
      <div className="day-trade-meta small">
        <span>{trade.rMultiple === null ? 'No initial stop' : `${trade.rMultiple.toFixed(2)} R`}</span>
        {trade.rating !== null && <span>Rated {trade.rating}/5</span>}
        {trade.tags.map((tag) => (
          <CBadge key={tag.id} color={TAG_KIND_STYLE[tag.kind].color} shape="rounded-pill" className="fw-normal">
            {tag.name}
          </CBadge>
        ))}
      </div>
      {/* Notes are the trader's markdown source, always shown as text: never parsed into HTML. */}
      {trade.note !== '' && <p className="day-trade-note small mb-0">{trade.note}</p>}
    </li>
  );
}

function EntryForm({ date, entry }: { date: string; entry: JournalDay }) {
  const [note, setNote] = useState(entry.note);
  const [mood, setMood] = useState<number | null>(entry.mood);
  const [savedAt, setSavedAt] = useState<string | null>(entry.updatedAt);
  const save = useUpdateDay(date);
  const dirty = note !== entry.note || mood !== entry.mood;
  const tooLong = note.length > JOURNAL_LIMITS.note;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (tooLong) return;
    save.mutate(
      { note, mood },
      {
        onSuccess: () => {
          setSavedAt(new Date().toISOString());
          toast.success('Journal entry saved');
        },
      },
    );
  };

  return (
    <form className="day-entry" onSubmit={submit} aria-label="Journal entry">
      <fieldset className="mb-3">
        <legend className="form-label fs-6">Mood</legend>
        <div className="day-moods" role="radiogroup" aria-label="Mood">
          {MOODS.map((label, index) => {
            const value = index + 1;
            return (
              <CButton
                key={label}
                type="button"
                role="radio"
                aria-checked={mood === value}
                color={mood === value ? 'primary' : 'secondary'}
                variant={mood === value ? undefined : 'outline'}
                size="sm"
                onClick={() => setMood(mood === value ? null : value)}
              >
                {value} · {label}
              </CButton>
            );
          })}
        </div>
      </fieldset>
      <CFormLabel htmlFor="day-note">Notes</CFormLabel>
      <CFormTextarea
        id="day-note"
        rows={5}
        value={note}
        invalid={tooLong}
        placeholder="What did you see, plan and feel today?"
        onChange={(e) => setNote(e.target.value)}
      />
      <div className={`small mt-1 ${tooLong ? 'text-danger' : 'text-body-secondary'}`}>
        {tooLong
          ? `The note must be at most ${JOURNAL_LIMITS.note.toLocaleString('en-US')} characters (now ${note.length.toLocaleString('en-US')}).`
          : 'Markdown is kept as you write it and shown as plain text.'}
      </div>
      {save.isError && (
        <CAlert color="danger" className="mt-2 mb-0 py-2" role="alert">
          {failureMessage(save.error, 'The journal entry could not be saved.')}
        </CAlert>
      )}
      <div className="day-entry-actions">
        <span className="small text-body-secondary" role="status">
          {save.isPending
            ? 'Saving…'
            : dirty
              ? 'Unsaved changes'
              : savedAt
                ? `Saved ${new Date(savedAt).toLocaleString()}`
                : 'No entry yet'}
        </span>
        <CButton type="submit" color="primary" disabled={save.isPending || tooLong || !dirty}>
          {save.isPending && <CSpinner size="sm" className="me-2" aria-hidden="true" />}
          Save entry
        </CButton>
      </div>
    </form>
  );
}

/** A calendar day: the trades that closed on it and the day's journal entry (note and mood), editable. */
export function DayPanel({ date, timeZone, onClose }: { date: string; timeZone: string; onClose: () => void }) {
  const day = useDay(date, timeZone);
  const trades = day.data?.trades ?? [];
  // The day's P/L as the calendar has it, under the currency rule (one currency, converted into the home currency, or
  // one amount per currency: docs/decisions/024-currencies-never-mixed.md), never the trades' P/L added here.
  const month = useCalendarMonth(date.slice(0, 7), timeZone);
  const found = month.data?.days.find((d) => d.date === date);
  const net = found ? totalOf([found]) : null;
  return (
    <CModal visible onClose={onClose} size="lg" alignment="center" scrollable aria-labelledby="day-panel-title">
      <CModalHeader>
        <CModalTitle id="day-panel-title">{dayLabel(date)}</CModalTitle>
      </CModalHeader>
      <CModalBody>
        {day.isError ? (
          <LoadErrorState what="day" message={day.error.message} onRetry={() => void day.refetch()} />
        ) : !day.data ? (
          <div className="cal-loading" role="status" aria-label="Loading the day">
            <CSpinner color="primary" aria-hidden="true" />
          </div>
        ) : (
          <>
            <section aria-labelledby="day-trades-title" className="mb-4">
              <h3 id="day-trades-title" className="h6 d-flex justify-content-between">
                <span>
                  {trades.length === 0 ? 'No trades closed this day' : plural(trades.length, 'trade') + ' closed'}
                </span>
                {trades.length > 0 && net && <span className={figureClass(net)}>Net {figureText(net)}</span>}
              </h3>
              {trades.length > 0 && (
                <ul className="day-trades list-unstyled mb-0">
                  {trades.map((trade) => (
                    <TradeRow key={`${trade.accountId}:${trade.tradeId}`} trade={trade} timeZone={timeZone} />
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="day-entry-title">
              <h3 id="day-entry-title" className="h6">
                Journal entry
              </h3>
              <EntryForm key={day.data.updatedAt ?? 'new'} date={date} entry={day.data} />
            </section>
            <div className="mt-4">
              <AttachmentsPanel key={date} target="day" date={date} />
            </div>
          </>
        )}
      </CModalBody>
    </CModal>
  );
}
