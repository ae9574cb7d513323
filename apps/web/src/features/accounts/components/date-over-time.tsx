import { dateTimeParts, formatDateTime } from '../../../components/data/format';

/**
 * A local date over its time, so a table of many columns fits a laptop screen and one of a few a phone's (the
 * Accounts table's Added, the cash flows' Time); the full date-time is in the cell's title.
 */
export function DateOverTime({ value }: { value: string }) {
  const parts = dateTimeParts(value);
  if (!parts) return <>{formatDateTime(value)}</>;
  return (
    <>
      <span className="d-block">{parts.date}</span>
      <span className="d-block small text-body-secondary">{parts.time}</span>
    </>
  );
}
