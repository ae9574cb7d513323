import { isLlmError } from '../../integrations/llm';
import { AppError } from '../../lib/errors';

/** The provider's words for the failures a trader can act on, written for them. */
export function explainFailure(error: unknown, provider: string): string {
  if (isLlmError(error)) {
    switch (error.kind) {
      case 'timeout':
        return `${provider} did not answer in time, so there is no answer this time. Please try again.`;
      case 'aborted':
        return 'The answer was cancelled before it was complete.';
      case 'auth':
        return `${error.message} The server administrator needs to fix the key; until then, choose another AI platform in Settings → AI Platform.`;
      default:
        return error.message;
    }
  }
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return 'Answering took longer than the time allowed, so there is no answer this time. Your message is saved; please try again.';
  if (error instanceof DOMException && error.name === 'AbortError')
    return 'The answer was cancelled before it was complete.';
  if (error instanceof AppError && error.status < 500) return error.message;
  if (error instanceof AppError && error.code.startsWith('OANDA')) return error.message;
  return 'Something went wrong while answering. Your message is saved; please try again.';
}
