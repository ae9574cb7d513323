import { isLlmError } from '../../integrations/llm';
import { AppError } from '../../lib/errors';
import { AiBudgetExhaustedError } from '../ai-usage';

/** Stored when the trader stopped an answer before any text was written (and said when one is stopped). */
export const CANCELLED_MESSAGE = 'The answer was cancelled before it was complete.';
/** Added under the text written so far when the server stopped (a restart, a crash) before the answer was complete. */
export const INTERRUPTED_MESSAGE = 'The server stopped before the answer was complete. Please ask again.';

/** The text written so far, then a note on a line of its own; the note alone when nothing was written. */
export const withNote = (text: string, note: string) => (text.trim() ? `${text.trimEnd()}\n\n${note}` : note);

/** The provider's words for the failures a trader can act on, written for them. */
export function explainFailure(error: unknown, provider: string): string {
  // Today's requests ran out in the middle of an answer (another answer or the insights took the last ones).
  if (error instanceof AiBudgetExhaustedError) return error.message;
  if (isLlmError(error)) {
    switch (error.kind) {
      case 'timeout':
        return `${provider} did not answer in time, so there is no answer this time. Please try again.`;
      case 'aborted':
        return CANCELLED_MESSAGE;
      case 'auth':
        return `${error.message} The server administrator needs to fix the key; until then, choose another AI platform in Settings → AI Platform.`;
      default:
        return error.message;
    }
  }
  if (error instanceof DOMException && error.name === 'TimeoutError')
    return 'Answering took longer than the time allowed, so there is no answer this time. Your message is saved; please try again.';
  if (error instanceof DOMException && error.name === 'AbortError') return CANCELLED_MESSAGE;
  if (error instanceof AppError && error.status < 500) return error.message;
  if (error instanceof AppError && error.code.startsWith('OANDA')) return error.message;
  return 'Something went wrong while answering. Your message is saved; please try again.';
}
