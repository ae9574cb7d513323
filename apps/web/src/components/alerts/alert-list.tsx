import type { RuleAlert } from '@pipsense/contract';
import { formatDateTime } from '../data/format';

/**
 * Alerts of the rule sets' loss limits (docs/PRODUCT.md, My Rules: Alerts), newest first as the server gives them:
 * the message, the rule set and the local time. An unread one is marked (a dot, bold, and 'Unread' for a screen
 * reader) and is a button: clicking it marks it read. The header's bell and My Rules show the same list.
 */
export function AlertList({
  alerts,
  onRead,
  className = '',
}: {
  alerts: readonly RuleAlert[];
  onRead: (id: string) => void;
  className?: string;
}) {
  return (
    <ul className={`alert-list list-unstyled mb-0 ${className}`}>
      {alerts.map((alert) => {
        const unread = alert.readAt === null;
        const body = (
          <>
            <span className="alert-dot" aria-hidden="true" />
            <span className="alert-text">
              {unread && <span className="visually-hidden">Unread: </span>}
              <span className="alert-message">{alert.message}</span>
              <span className="alert-meta small text-body-secondary">
                {alert.ruleSetName} · <time dateTime={alert.time}>{formatDateTime(alert.time)}</time>
              </span>
            </span>
          </>
        );
        return (
          <li key={alert.id} className={`alert-item${unread ? ' alert-unread' : ''}`}>
            {unread ? (
              <button type="button" className="alert-entry" title="Mark as read" onClick={() => onRead(alert.id)}>
                {body}
              </button>
            ) : (
              <div className="alert-entry">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
