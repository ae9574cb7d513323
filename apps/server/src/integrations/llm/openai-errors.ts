import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { kindFromHttpStatus, LlmError, type LlmErrorKind } from './errors';

export interface OpenAiErrorContext {
  label: string;
  model: string;
  /** Set when our deadline or the caller's signal stopped the call. */
  stopReason: 'timeout' | 'aborted' | undefined;
}

/** Kinds by the `code`/`type` of an error body; they decide before the HTTP status (429 means two things). */
function kindFromBody(code: string | null | undefined, type: string | undefined): LlmErrorKind | undefined {
  if (code === 'insufficient_quota' || type === 'insufficient_quota') return 'quota';
  if (code === 'rate_limit_exceeded') return 'rate_limit';
  if (code === 'invalid_api_key') return 'auth';
  if (code === 'unsupported_country_region_territory') return 'auth';
  return undefined;
}

/** Maps anything the `openai` SDK (or our parsing) throws to an `LlmError`. */
export function toOpenAiLlmError(error: unknown, context: OpenAiErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  const base = { provider: 'openai' as const, label: context.label, cause: error };
  const detail = error instanceof Error ? error.message : String(error);

  if (context.stopReason) return new LlmError(context.stopReason, { ...base, detail });
  if (error instanceof APIUserAbortError) return new LlmError('aborted', { ...base, detail });
  if (error instanceof APIConnectionTimeoutError) return new LlmError('timeout', { ...base, detail });
  if (error instanceof APIConnectionError) return new LlmError('network', { ...base, detail });

  if (error instanceof APIError) {
    // The SDK's generic parameters are lost to `instanceof`; this is the declared default.
    const status = error.status as number | undefined;
    const code = error.code;
    // A status-less APIError is an error event inside a 200 stream.
    const kind = kindFromBody(code, error.type) ?? (status ? kindFromHttpStatus(status) : 'unavailable');
    const options = { ...base, detail, ...(status ? { status } : {}) };
    if (status === 403 && kind === 'auth') {
      return new LlmError(kind, {
        ...options,
        message: `${context.label} refused access for the account configured on this server (permission or region).`,
      });
    }
    if (status === 404 && (code === 'model_not_found' || /model/i.test(detail))) {
      return new LlmError('bad_request', {
        ...options,
        message: `The model "${context.model}" is not available from ${context.label} with the account configured on this server.`,
      });
    }
    return new LlmError(kind, options);
  }

  // JSON.parse of a malformed SSE event.
  if (error instanceof SyntaxError) return new LlmError('invalid_response', { ...base, detail });
  return new LlmError('unavailable', { ...base, detail });
}
