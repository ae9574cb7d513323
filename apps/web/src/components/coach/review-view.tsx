import { CBadge } from '@coreui/react';
import type { ReviewPoint, TradeReview } from '@pipsense/contract';
import { patternLabel } from '@pipsense/contract';
import { sourceLabel } from '../../lib/coach-query';
import './coach.css';

interface ReviewViewProps {
  review: TradeReview;
  source: string | null;
  /** A point hovered or focused names the facts it cites; null when it is left. */
  onPoint?: (facts: readonly string[] | null) => void;
}

function Points({
  title,
  points,
  onPoint,
}: {
  title: string;
  points: readonly ReviewPoint[];
  onPoint: ReviewViewProps['onPoint'];
}) {
  return (
    <div className="coach-points">
      <h4 className="h6 small fw-semibold mb-1">{title}</h4>
      <ul className="list-unstyled mb-2" aria-label={title}>
        {points.map((point, i) => (
          <Point key={i} point={point} onPoint={onPoint} />
        ))}
      </ul>
    </div>
  );
}

/** A point is focusable when its facts can be shown, so a keyboard reaches what a mouse hovers. */
function Point({ point, onPoint }: { point: ReviewPoint; onPoint: ReviewViewProps['onPoint'] }) {
  const show = onPoint ? () => onPoint(point.facts) : undefined;
  const hide = onPoint ? () => onPoint(null) : undefined;
  return (
    <li
      className={`coach-point${onPoint ? ' coach-point-live' : ''}`}
      tabIndex={onPoint ? 0 : undefined}
      onMouseEnter={show}
      onMouseLeave={hide}
      onFocus={show}
      onBlur={hide}
    >
      {point.text}
    </li>
  );
}

/**
 * A trade's review (docs/coach.md, A trade's review): what went well, what to improve, the one action for next time and
 * the execution score with its rubric, and who wrote it.
 */
export function ReviewView({ review, source, onPoint }: ReviewViewProps) {
  return (
    <div className="coach-review">
      <div className="coach-review-columns">
        <Points title="Went well" points={review.wentWell} onPoint={onPoint} />
        <Points title="To improve" points={review.toImprove} onPoint={onPoint} />
      </div>
      <Points title="Next time" points={[review.action]} onPoint={onPoint} />
      <div className="coach-score">
        <strong aria-label={`Execution score ${review.score.value} out of 5`}>Score {review.score.value}/5</strong>
        <p className="small text-body-secondary mb-0">{review.score.rubric}</p>
      </div>
      {source !== null && <p className="small text-body-secondary mt-2 mb-0">Written by: {sourceLabel(source)}</p>}
    </div>
  );
}

/** The patterns that flag a trade, as chips. */
export function PatternChips({ patterns }: { patterns: readonly string[] }) {
  if (patterns.length === 0) return null;
  return (
    <ul className="coach-chips list-unstyled mb-2" aria-label="Patterns">
      {patterns.map((id) => (
        <li key={id}>
          <CBadge color="warning" textColor="dark" shape="rounded-pill">
            {patternLabel(id)}
          </CBadge>
        </li>
      ))}
    </ul>
  );
}
