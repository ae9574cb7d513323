import { CSpinner } from '@coreui/react';
import CIcon from '@coreui/icons-react';
import { cilWarning } from '@coreui/icons';
import type { InsightsStatus } from '@pipsense/contract';
import { formatDateTime } from '../../../components/data/format';

const PROVIDER_NAMES = { openai: 'OpenAI', vertexai: 'Vertex AI' } as const;

/** 'Insights by OpenAI (gpt-4o)', or 'Built-in analysis' when the server's own rules wrote them. */
function insightsSourceText(insights: InsightsStatus): string {
  if (insights.source === 'builtin') return 'Built-in analysis';
  const model = insights.model ? ` (${insights.model})` : '';
  return `Insights by ${PROVIDER_NAMES[insights.source]}${model}`;
}

const PENDING_NOTE = 'The AI provider is writing the insights; the built-in analysis shows until they arrive.';

/** Who wrote AI Insights, Quick Wins and Long Term Strategy, and why the built-in text shows when it does. */
export function InsightsSource({ insights }: { insights: InsightsStatus }) {
  const written = insights.writtenAt ? `Written ${formatDateTime(insights.writtenAt)}` : undefined;
  return (
    <div className="insights-source">
      <span className="insights-source-name" title={written}>
        {insightsSourceText(insights)}
      </span>
      {insights.status === 'pending' && (
        <span className="insights-source-note text-body-secondary" role="status">
          <CSpinner size="sm" color="primary" aria-hidden="true" />
          {insights.note ?? PENDING_NOTE}
        </span>
      )}
      {insights.status === 'fallback' && insights.note && (
        <span className="insights-source-note text-warning-emphasis">
          <CIcon icon={cilWarning} aria-hidden="true" />
          {insights.note}
        </span>
      )}
    </div>
  );
}
