import { useState } from 'react';
import { CBadge, CButton, CSpinner } from '@coreui/react';
import type { CoachFact } from '@pipsense/contract';
import { PatternChips, ReviewView } from '../../../components/coach/review-view';
import { formatDateTime } from '../../../components/data/format';
import { ApiError, failureMessage } from '../../../lib/api';
import { useReviewTrade, useTradeCoachReview } from '../api/coach-api';

/** What a failed review request says: the limits and a review already being written get their own words. */
function reviewFailure(error: unknown): string {
  const message = failureMessage(error, 'The review could not be written.');
  if (error instanceof ApiError && error.status === 429)
    return `Too many reviews asked for: ${message} Try again later.`;
  if (error instanceof ApiError && error.status === 409)
    return `A review of this trade is already being written: ${message}`;
  return `The review could not be written: ${message}`;
}

function FactList({
  facts,
  cited,
  active,
}: {
  facts: readonly CoachFact[];
  cited: ReadonlySet<string>;
  active: ReadonlySet<string>;
}) {
  return (
    <ul className="coach-facts list-unstyled mb-0" aria-label="Facts">
      {facts.map((fact) => {
        const isCited = cited.has(fact.name);
        const isActive = active.has(fact.name);
        return (
          <li
            key={fact.name}
            className={`coach-fact${isCited ? ' coach-fact-cited' : ''}${isActive ? ' coach-fact-active' : ''}`}
            data-fact={fact.name}
            aria-current={isActive ? 'true' : undefined}
          >
            <span className="coach-fact-mark" aria-hidden="true">
              {isCited ? '●' : '○'}
            </span>
            <span className="flex-grow-1">{fact.text}</span>
            {isCited && (
              <CBadge color="primary" shape="rounded-pill" className="small">
                cited
              </CBadge>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * docs/PRODUCT.md, Trade list: the trade's Coach section (docs/coach.md). The stored review, written by the built-in
 * analyst or the configured provider, beside the facts code computed; hovering or focusing a point highlights the facts
 * it rests on. 'Review this trade' writes it now.
 */
export function TradeCoachSection({ accountId, tradeId }: { accountId: string; tradeId: string }) {
  const stored = useTradeCoachReview(accountId, tradeId);
  const review = useReviewTrade(accountId, tradeId);
  const [active, setActive] = useState<ReadonlySet<string>>(new Set());
  const data = stored.data;
  const cited = new Set(
    data?.review ? [...data.review.wentWell, ...data.review.toImprove, data.review.action].flatMap((p) => p.facts) : [],
  );
  const button = (label: string) => (
    <CButton
      color="primary"
      variant={data?.review ? 'outline' : undefined}
      size="sm"
      disabled={review.isPending}
      onClick={() => review.mutate()}
    >
      {review.isPending && <CSpinner size="sm" className="me-1" aria-hidden="true" />}
      {label}
    </CButton>
  );

  return (
    <section className="mb-4" aria-label="Coach">
      <h3 className="h6 fw-semibold mb-2">Coach</h3>
      {stored.isPending ? (
        <div role="status" aria-label="Loading the review">
          <CSpinner size="sm" color="primary" aria-hidden="true" />
        </div>
      ) : stored.isError ? (
        <p className="text-danger small" role="alert">
          The review could not be loaded: {stored.error.message}
        </p>
      ) : (
        <>
          <PatternChips patterns={data!.patterns} />
          {data!.review === null ? (
            <div className="d-flex flex-wrap align-items-center gap-2 mb-2">
              {button('Review this trade')}
              <span className="small text-body-secondary">
                A review of this trade’s execution, from the facts below.
              </span>
            </div>
          ) : (
            <>
              {data!.stale && (
                <div className="alert alert-warning py-2 small d-flex flex-wrap align-items-center gap-2" role="status">
                  <span className="flex-grow-1">
                    This review is stale: the trade, its journal or its candles changed since it was written.
                  </span>
                  {button('Review again')}
                </div>
              )}
              <ReviewView
                review={data!.review}
                source={data!.source}
                onPoint={(facts) => setActive(new Set(facts ?? []))}
              />
              {data!.createdAt && (
                <p className="small text-body-tertiary mb-2">Reviewed {formatDateTime(data!.createdAt)}</p>
              )}
              {!data!.stale && <div className="mb-2">{button('Review this trade again')}</div>}
            </>
          )}
          {review.isPending && (
            <p className="small text-body-secondary mb-2" role="status">
              Writing the review…
            </p>
          )}
          {review.isError && (
            <p className="text-danger small mb-2" role="alert">
              {reviewFailure(review.error)}
            </p>
          )}
          {data!.facts.length > 0 ? (
            <>
              <h4 className="h6 small fw-semibold mt-3 mb-1">Facts</h4>
              <FactList facts={data!.facts} cited={cited} active={active} />
            </>
          ) : (
            <p className="small text-body-secondary mb-0">No facts could be computed for this trade yet.</p>
          )}
        </>
      )}
    </section>
  );
}
