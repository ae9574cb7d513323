import { ApiError } from '@google/genai';
import { brokenStreamMessage, kindFromHttpStatus, LlmError, type LlmErrorKind } from './errors';

export interface VertexErrorContext {
  label: string;
  model: string;
  stopReason: 'timeout' | 'aborted' | undefined;
}

interface GoogleRpcError {
  code?: number;
  message?: string;
  status?: string;
  details?: Array<{ reason?: string }>;
}

/**
 * `@google/genai` puts the whole error body, JSON-encoded, into `ApiError.message` (prefixed with
 * `got status: …` for errors inside a stream).
 */
function rpcErrorOf(message: string): GoogleRpcError | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(message.slice(start)) as { error?: GoogleRpcError };
    return body.error && typeof body.error === 'object' ? body.error : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The HTTP status that Google's own table (google.rpc.Code) gives each rpc status read here. When the body names
 * one of these, it decides through that status, so the rpc status and the HTTP status share one mapping.
 */
const HTTP_STATUS_OF_RPC: ReadonlyMap<string, number> = new Map([
  ['UNAUTHENTICATED', 401],
  ['PERMISSION_DENIED', 403],
  ['ABORTED', 409],
  ['INTERNAL', 500],
  ['UNKNOWN', 500],
  ['UNAVAILABLE', 503],
  ['DEADLINE_EXCEEDED', 504],
]);

function kindOf(status: number, rpc: GoogleRpcError | undefined): LlmErrorKind {
  const reasons = (rpc?.details ?? []).map((d) => d.reason ?? '');
  // A bad API key is a 400 INVALID_ARGUMENT with reason API_KEY_INVALID, not a 401.
  if (reasons.includes('API_KEY_INVALID') || /api key not valid/i.test(rpc?.message ?? '')) return 'auth';
  if (rpc?.status === 'RESOURCE_EXHAUSTED') {
    // Google uses one status for per-minute limits and spent budgets; only the latter mentions billing.
    return /billing|credit|prepay/i.test(rpc.message ?? '') ? 'quota' : 'rate_limit';
  }
  return kindFromHttpStatus(HTTP_STATUS_OF_RPC.get(rpc?.status ?? '') ?? status);
}

/** Maps anything `@google/genai` (or google-auth-library, or fetch) throws to an `LlmError`. */
export function toVertexLlmError(error: unknown, context: VertexErrorContext): LlmError {
  if (error instanceof LlmError) return error;
  const base = { provider: 'vertexai' as const, label: context.label, cause: error };
  const detail = error instanceof Error ? error.message : String(error);

  if (context.stopReason) return new LlmError(context.stopReason, { ...base, detail });

  if (error instanceof ApiError) {
    const rpc = rpcErrorOf(error.message);
    const kind = kindOf(error.status, rpc);
    const options = { ...base, detail: rpc?.message ?? detail, status: error.status };
    if (kind === 'auth' && rpc?.status === 'PERMISSION_DENIED') {
      return new LlmError(kind, {
        ...options,
        message: `${context.label} refused access for the account configured on this server (missing permission or API not enabled).`,
      });
    }
    if (error.status === 404) {
      return new LlmError('bad_request', {
        ...options,
        message: `The model "${context.model}" is not available from ${context.label} with the project configured on this server.`,
      });
    }
    return new LlmError(kind, options);
  }

  if (error instanceof Error && error.name === 'AbortError') return new LlmError('aborted', { ...base, detail });
  // google-auth-library, when no Application Default Credentials can be found or refreshed.
  if (/default credentials|invalid_grant|getting metadata|unable to impersonate/i.test(detail)) {
    return new LlmError('auth', {
      ...base,
      detail,
      message: `${context.label} credentials are not set up on this server.`,
    });
  }
  if (
    error instanceof TypeError &&
    /fetch failed|network|ECONNREFUSED|ENOTFOUND/i.test(`${detail} ${String(error.cause)}`)
  ) {
    return new LlmError('network', { ...base, detail });
  }
  // The SDK's stream reader, when the connection closes in the middle of an event.
  if (/Incomplete JSON segment|exception parsing stream chunk/i.test(detail)) {
    return new LlmError('network', {
      ...base,
      detail,
      message: brokenStreamMessage(context.label),
    });
  }
  return new LlmError('unavailable', { ...base, detail });
}
