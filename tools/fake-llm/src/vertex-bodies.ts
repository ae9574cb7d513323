/**
 * Vertex AI generateContent wire bodies, shaped like the reference fixtures
 * (response.*.json, stream.*.alt-sse.txt, errors/*.json).
 */
import type { FakeErrorKind, FakeToolCall } from './types';
import { estimateTokens, isRecord, parseJsonOr, randomId } from './wire-utils';

export interface GoogleErrorBody {
  error: { code: number; message: string; status: string; details?: unknown[] };
}

export function googleError(code: number, status: string, message: string, details?: unknown[]): GoogleErrorBody {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

export function invalidArgument(message: string, field?: string): GoogleErrorBody {
  return googleError(
    400,
    'INVALID_ARGUMENT',
    message,
    field
      ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: message }] }]
      : undefined,
  );
}

export function vertexErrorBody(kind: FakeErrorKind, model: string, resource: string): GoogleErrorBody {
  switch (kind) {
    case 'invalid_api_key':
      return googleError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
        [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'ACCESS_TOKEN_EXPIRED',
            domain: 'googleapis.com',
            metadata: {
              service: 'aiplatform.googleapis.com',
              method: 'google.cloud.aiplatform.v1.PredictionService.GenerateContent',
            },
          },
        ],
      );
    case 'permission_denied':
      return googleError(
        403,
        'PERMISSION_DENIED',
        `Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/${resource}' (or it may not exist).`,
        [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'IAM_PERMISSION_DENIED',
            domain: 'aiplatform.googleapis.com',
            metadata: { permission: 'aiplatform.endpoints.predict', resource },
          },
        ],
      );
    case 'model_not_found':
      return googleError(
        404,
        'NOT_FOUND',
        `Publisher Model \`${resource}\` was not found or your project does not have access to it. Please ensure you are using a valid model version.`,
      );
    case 'bad_request':
      return invalidArgument(
        `Invalid JSON payload received. Unknown name "strict" at 'tools[0].function_declarations[0]': Cannot find field.`,
        'tools[0].function_declarations[0]',
      );
    case 'rate_limit':
    case 'insufficient_quota':
      return googleError(
        429,
        'RESOURCE_EXHAUSTED',
        'Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.',
      );
    case 'server_error':
      return googleError(500, 'INTERNAL', 'Internal error encountered.');
    case 'overloaded':
      return googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
    default:
      return googleError(500, 'INTERNAL', `Internal error encountered (${model}).`);
  }
}

/** A fake but well-formed thought signature (base64 of random bytes). */
function thoughtSignature(): string {
  return Buffer.from(randomId('sig', 48)).toString('base64');
}

type VertexPart = Record<string, unknown>;

export interface VertexAnswer {
  parts: VertexPart[];
  finishReason: string;
  finishMessage?: string;
  blocked?: string;
}

/**
 * Function calls as parts, the first one signed like Gemini does. Arguments that are not a JSON
 * object cannot be expressed on this wire: Gemini reports MALFORMED_FUNCTION_CALL instead.
 */
export function toolCallsAnswer(calls: FakeToolCall[]): VertexAnswer {
  const parts: VertexPart[] = [];
  for (const call of calls) {
    const args = call.rawArguments !== undefined ? parseJsonOr(call.rawArguments, undefined) : (call.args ?? {});
    if (!isRecord(args)) {
      return {
        parts: [],
        finishReason: 'MALFORMED_FUNCTION_CALL',
        finishMessage: `Malformed function call: ${call.name}(${call.rawArguments ?? ''})`,
      };
    }
    parts.push({
      functionCall: { name: call.name, args },
      ...(parts.length === 0 ? { thoughtSignature: thoughtSignature() } : {}),
    });
  }
  return { parts, finishReason: 'STOP' };
}

export function usageMetadata(requestBody: unknown, output: unknown) {
  const prompt = estimateTokens(requestBody);
  const candidates = estimateTokens(output);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates,
    trafficType: 'ON_DEMAND',
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    candidatesTokensDetails: [{ modality: 'TEXT', tokenCount: candidates }],
  };
}

/** Fields every response and chunk repeats. */
function responseTrailer(model: string) {
  const iso = new Date().toISOString();
  return {
    modelVersion: model,
    createTime: `${iso.slice(0, -1)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}Z`,
    responseId: randomId('', 23, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
  };
}

function candidateOf(answer: VertexAnswer) {
  return {
    content: answer.parts.length > 0 ? { role: 'model', parts: answer.parts } : {},
    finishReason: answer.finishReason,
    ...(answer.finishMessage ? { finishMessage: answer.finishMessage } : {}),
  };
}

export function responseBody(answer: VertexAnswer, model: string, usage: ReturnType<typeof usageMetadata>) {
  const trailer = responseTrailer(model);
  if (answer.blocked !== undefined) {
    return {
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT', blockReasonMessage: answer.blocked },
      usageMetadata: {
        promptTokenCount: usage.promptTokenCount,
        totalTokenCount: usage.promptTokenCount,
        trafficType: usage.trafficType,
        promptTokensDetails: usage.promptTokensDetails,
      },
      ...trailer,
    };
  }
  return { candidates: [candidateOf(answer)], usageMetadata: usage, ...trailer };
}

/**
 * Stream chunks: text in pieces of about eight words (Gemini sends large deltas), function calls
 * whole in one chunk; the last chunk carries finishReason and usage.
 */
export function streamChunks(answer: VertexAnswer, model: string, usage: ReturnType<typeof usageMetadata>): unknown[] {
  const trailer = responseTrailer(model);
  if (answer.blocked !== undefined) return [responseBody(answer, model, usage)];
  const textParts = answer.parts.filter((p) => typeof p.text === 'string');
  if (textParts.length === 0 || textParts.length !== answer.parts.length) {
    return [{ candidates: [candidateOf(answer)], usageMetadata: usage, ...trailer }];
  }
  const text = textParts.map((p) => String(p.text)).join('');
  const words = text.match(/\s*\S+/g) ?? [text];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += 8) pieces.push(words.slice(i, i + 8).join(''));
  return pieces.map((piece, i) => {
    const last = i === pieces.length - 1;
    const candidate = {
      content: { role: 'model', parts: [{ text: piece }] },
      ...(last ? { finishReason: answer.finishReason } : {}),
    };
    return { candidates: [candidate], ...(last ? { usageMetadata: usage } : {}), ...trailer };
  });
}
