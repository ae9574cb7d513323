import { useId } from 'react';

const RATING_MAX = 5;

interface RatingStarsProps {
  /** 1–5, or null when not rated. */
  value: number | null;
  /** Makes the stars a control; clicking the current rating clears it. Without it the rating is only shown. */
  onChange?: (value: number | null) => void;
  /** What is rated, for screen readers: 'Trade rating'. */
  label: string;
  disabled?: boolean;
}

/** A 1–5 star rating: a radio group of five stars to set it, or the stars alone to show it. */
export function RatingStars({ value, onChange, label, disabled = false }: RatingStarsProps) {
  const name = useId();
  const stars = Array.from({ length: RATING_MAX }, (_, i) => i + 1);
  if (!onChange)
    return (
      <span className="rating-stars" role="img" aria-label={value ? `Rated ${value} of ${RATING_MAX}` : 'Not rated'}>
        {value ? (
          stars.map((star) => (
            <span key={star} aria-hidden="true" className={star <= value ? 'star-on' : 'star-off'}>
              ★
            </span>
          ))
        ) : (
          <span className="no-rating">-</span>
        )}
      </span>
    );
  return (
    <div className="rating-stars rating-stars-input" role="radiogroup" aria-label={label}>
      {stars.map((star) => (
        <label key={star} className={star <= (value ?? 0) ? 'star-on' : 'star-off'}>
          <input
            type="radio"
            className="visually-hidden"
            name={name}
            value={star}
            checked={value === star}
            disabled={disabled}
            aria-label={`${star} of ${RATING_MAX}`}
            onChange={() => onChange(star)}
            onClick={() => {
              if (value === star) onChange(null);
            }}
          />
          <span aria-hidden="true">★</span>
        </label>
      ))}
      {value !== null && (
        <button
          type="button"
          className="btn btn-link btn-sm p-0 ms-2"
          disabled={disabled}
          onClick={() => onChange(null)}
        >
          Clear rating
        </button>
      )}
    </div>
  );
}
