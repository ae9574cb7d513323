import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { CBadge, CButton, CCard, CCardBody, CFormInput, CFormLabel, CSpinner } from '@coreui/react';
import { useQuery } from '@tanstack/react-query';
import { PATTERN_LABELS, type WeeklyReview, type WeeklyReviewListItem } from '@pipsense/contract';
import { PatternChips, ReviewView } from '../../../components/coach/review-view';
import { EmptyState, LoadErrorState } from '../../../components/data/data-states';
import { formatDateTime, formatInstrument, formatR } from '../../../components/data/format';
import { paths } from '../../../config/paths';
import { sourceLabel, weekPath, weeklyReviewsQuery } from '../../../lib/coach-query';
import { useReadWeeklyReview, useWeeklyReview } from '../api/coach-api';
import { isIsoWeek, lastWeek } from '../model/coach-view';
import { Money } from './patterns-page';
import '../coach.css';

const day = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' });

/** 'Nov 17, 2026 – Nov 23, 2026': the week's Monday to its Sunday (the bound is the next Monday 00:00). */
function weekDates(from: string, to: string): string {
  const start = Date.parse(from);
  const end = Date.parse(to) - 1;
  if (Number.isNaN(start) || Number.isNaN(end)) return `${from} – ${to}`;
  return `${day.format(start)} – ${day.format(end)}`;
}

const percent = (value: number | null) => (value === null ? '-' : `${value.toFixed(1)} %`);

/**
 * Open last week (made on request when none is stored) or any ended week picked. Last week is the server's, in the
 * trader's time zone; the browser's calendar stands in until the list has answered.
 */
function WeekPicker({ lastEnded }: { lastEnded: string | undefined }) {
  const id = useId();
  const navigate = useNavigate();
  const [picked, setPicked] = useState('');
  const open = (week: string) => void navigate(weekPath(week));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (isIsoWeek(picked)) open(picked);
  };
  return (
    <form className="coach-week-picker mb-3" onSubmit={submit} aria-label="Open a week" noValidate>
      <CButton type="button" color="primary" size="sm" onClick={() => open(lastEnded ?? lastWeek())}>
        Open last week
      </CButton>
      <div>
        <CFormLabel htmlFor={`${id}-week`} className="small mb-1">
          Or a week
        </CFormLabel>
        <CFormInput
          id={`${id}-week`}
          size="sm"
          type="week"
          placeholder="2026-W47"
          value={picked}
          invalid={picked !== '' && !isIsoWeek(picked)}
          onChange={(e) => setPicked(e.target.value)}
        />
      </div>
      <CButton type="submit" color="secondary" variant="outline" size="sm" disabled={!isIsoWeek(picked)}>
        Open week
      </CButton>
    </form>
  );
}

function WeekRow({ item }: { item: WeeklyReviewListItem }) {
  const unread = item.readAt === null;
  return (
    <Link className={`coach-week-row${unread ? ' unread' : ''}`} to={weekPath(item.week)}>
      <div className="coach-week-meta">
        <div>
          <strong>{item.week}</strong>
          {unread && (
            <CBadge color="primary" shape="rounded-pill" className="ms-2">
              New
            </CBadge>
          )}
          <span className="small text-body-secondary ms-2">{weekDates(item.from, item.to)}</span>
        </div>
        <div className="small">Focus: {item.focus}</div>
        <div className="small text-body-secondary">Written by: {sourceLabel(item.source)}</div>
      </div>
      <div className="text-end">
        <div>
          <Money figure={item.netPL} />
        </div>
        <div className="small text-body-secondary">
          {item.trades} {item.trades === 1 ? 'trade' : 'trades'}
        </div>
      </div>
    </Link>
  );
}

function WeekList() {
  const weeks = useQuery(weeklyReviewsQuery());
  if (weeks.isError)
    return <LoadErrorState what="weekly reviews" message={weeks.error.message} onRetry={() => void weeks.refetch()} />;
  if (!weeks.data)
    return (
      <div className="coach-loading" role="status" aria-label="Loading weekly reviews">
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );
  return (
    <div className="coach-page">
      <WeekPicker lastEnded={weeks.data?.lastEnded} />
      {weeks.data.weeks.length === 0 ? (
        <EmptyState
          title="No weekly reviews yet"
          hint="Each week’s review is written once the week has ended. Open last week to have it written now."
        />
      ) : (
        <nav className="coach-weeks" aria-label="Weekly reviews">
          {weeks.data.weeks.map((item) => (
            <WeekRow key={item.week} item={item} />
          ))}
        </nav>
      )}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="coach-week-section" aria-labelledby={id}>
      <h3 id={id} className="h6 fw-semibold mb-2">
        {title}
      </h3>
      {children}
    </section>
  );
}

function Figure({
  label,
  value,
  baseline,
  weeks,
}: {
  label: string;
  value: ReactNode;
  baseline: ReactNode | null;
  weeks: number;
}) {
  return (
    <div className="coach-figure" role="group" aria-label={label}>
      <div className="small text-body-secondary">{label}</div>
      <div className="fw-semibold">{value}</div>
      {/* The baseline counts from the trader's first week with a trade: a new trader's is shorter than 12 weeks. */}
      {baseline !== null && (
        <div className="small text-body-secondary">
          {weeks}-week average: {baseline}
        </div>
      )}
    </div>
  );
}

function Figures({ review }: { review: WeeklyReview }) {
  const { figures: f, baseline: b } = review;
  const weeks = b?.weeks ?? 0;
  return (
    <>
      <div className="coach-figures">
        <Figure label="Trades" value={f.trades} baseline={b ? b.trades.toFixed(1) : null} weeks={weeks} />
        <Figure
          label="Net P/L"
          value={<Money figure={f.netPL} />}
          baseline={b ? <Money figure={b.netPL} /> : null}
          weeks={weeks}
        />
        <Figure label="Total R" value={formatR(f.totalR)} baseline={b ? formatR(b.totalR) : null} weeks={weeks} />
        <Figure label="Win rate" value={percent(f.winRate)} baseline={b ? percent(b.winRate) : null} weeks={weeks} />
      </div>
      <p className="small text-body-secondary mt-1 mb-0">
        {b ? `Averages of the ${b.weeks} weeks before.` : 'No earlier weeks to compare with yet.'}
      </p>
    </>
  );
}

function WeekTrades({ title, trades }: { title: string; trades: WeeklyReview['best'] }) {
  return (
    <Section title={title}>
      {trades.length === 0 ? (
        <p className="small text-body-secondary mb-0">None.</p>
      ) : (
        <div className="coach-week-trades">
          {trades.map((t) => (
            <CCard key={`${t.accountId}:${t.tradeId}`}>
              <CCardBody>
                <div className="d-flex flex-wrap justify-content-between gap-2 mb-2">
                  <span>
                    <strong>{formatInstrument(t.instrument)}</strong> {t.side === 'long' ? 'Long' : 'Short'} · #
                    {t.tradeId}
                  </span>
                  <span>
                    <Money figure={t.netPL} /> · {formatR(t.rMultiple)}
                  </span>
                </div>
                <div className="small text-body-secondary mb-2">Opened {formatDateTime(t.openTime)}</div>
                {t.review ? (
                  <ReviewView review={t.review} source={t.reviewSource} />
                ) : (
                  <p className="small text-body-secondary mb-0">Not reviewed.</p>
                )}
              </CCardBody>
            </CCard>
          ))}
        </div>
      )}
    </Section>
  );
}

const KEPT: Record<'true' | 'false' | 'null', [string, string]> = {
  true: ['Kept', 'success'],
  false: ['Not kept', 'danger'],
  null: ['Cannot be told', 'secondary'],
};

function WeekReport({ review }: { review: WeeklyReview }) {
  const kept = review.previousFocus ? KEPT[String(review.previousFocus.kept) as keyof typeof KEPT] : null;
  return (
    <article className="coach-page" aria-label={`Weekly review ${review.week}`}>
      <Link className="small" to={paths.coachWeeklyReviews}>
        ← All weekly reviews
      </Link>
      <h2 className="h5 mt-2 mb-1">Week {review.week}</h2>
      <p className="small text-body-secondary">
        {weekDates(review.from, review.to)} ({review.timeZone}) · Written by: {sourceLabel(review.source)}
      </p>
      <Section title="Summary">
        <ul className="mb-0">
          {review.summary.map((sentence, i) => (
            <li key={i}>{sentence}</li>
          ))}
        </ul>
      </Section>
      <Section title="Figures">
        <Figures review={review} />
      </Section>
      <Section title="Focus for next week">
        <p className="mb-1">{review.focus.text}</p>
        {review.focus.pattern && <PatternChips patterns={[review.focus.pattern]} />}
      </Section>
      {review.previousFocus && kept && (
        <Section title="Last week’s focus">
          <p className="mb-1">
            {review.previousFocus.text}{' '}
            <CBadge color={kept[1]} shape="rounded-pill">
              {kept[0]}
            </CBadge>
          </p>
          <p className="small text-body-secondary mb-0">{review.previousFocus.outcome}</p>
        </Section>
      )}
      <WeekTrades title="Best trades" trades={review.best} />
      <WeekTrades title="Worst trades" trades={review.worst} />
      <Section title="Patterns">
        {review.patterns.filter((p) => p.count > 0).length === 0 ? (
          <p className="small text-body-secondary mb-0">No pattern this week.</p>
        ) : (
          <ul className="list-unstyled mb-0">
            {review.patterns
              .filter((p) => p.count > 0)
              .map((p) => (
                <li key={p.pattern} className="mb-2">
                  <strong>{PATTERN_LABELS[p.pattern]}</strong>: {p.count} {p.count === 1 ? 'trade' : 'trades'}, net{' '}
                  <Money figure={p.netPL} /> (others <Money figure={p.othersNetPL} />
                  ), average {formatR(p.averageR)} (others {formatR(p.othersAverageR)})
                  <div className="small text-body-secondary">{p.definition}</div>
                </li>
              ))}
          </ul>
        )}
      </Section>
      {review.ruleBreaks && (
        <Section title="Rule breaks">
          <p className="mb-0">
            {review.ruleBreaks.breaks} {review.ruleBreaks.breaks === 1 ? 'break' : 'breaks'} on{' '}
            {review.ruleBreaks.trades} {review.ruleBreaks.trades === 1 ? 'trade' : 'trades'}
          </p>
        </Section>
      )}
      {review.playbooks && (
        <Section title="Playbook follow rate">
          <p className="mb-0">
            {percent(review.playbooks.followRate)} of {review.playbooks.reviewed} reviewed{' '}
            {review.playbooks.reviewed === 1 ? 'trade' : 'trades'}
          </p>
        </Section>
      )}
      {review.mood && (
        <Section title="Mood and results">
          <p className="mb-1">{review.mood.summary}</p>
          <ul className="list-unstyled small mb-0">
            {review.mood.days.map((d) => (
              <li key={d.date}>
                {d.date}: mood {d.mood}/5, <Money figure={d.netPL} />
              </li>
            ))}
          </ul>
        </Section>
      )}
    </article>
  );
}

/** A week's review: opening it marks it read (once per visit). */
function WeekPage({ week }: { week: string }) {
  const review = useWeeklyReview(week);
  const read = useReadWeeklyReview();
  const marked = useRef(false);
  const unread = review.data?.readAt === null;
  useEffect(() => {
    if (!unread || marked.current) return;
    marked.current = true;
    read.mutate(week);
  }, [unread, week, read]);

  if (review.isError)
    return (
      <div className="coach-page">
        <Link className="small" to={paths.coachWeeklyReviews}>
          ← All weekly reviews
        </Link>
        <LoadErrorState
          what={`review of ${week}`}
          message={review.error.message}
          onRetry={() => void review.refetch()}
        />
      </div>
    );
  if (!review.data)
    return (
      <div className="coach-loading" role="status" aria-label={`Loading the review of ${week}`}>
        <CSpinner color="primary" aria-hidden="true" />
      </div>
    );
  return <WeekReport review={review.data} />;
}

/**
 * docs/PRODUCT.md, Coach: Weekly Reviews. The stored weeks, newest first, with the unread ones marked; `?week=2026-W47`
 * opens one (an ended week with none stored is written on that request).
 */
export function WeeklyReviewsPage() {
  const [params] = useSearchParams();
  const week = params.get('week');
  if (week !== null) return <WeekPage key={week} week={week} />;
  return <WeekList />;
}
