import { abortKind } from './errors';

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * The abort signal handed to an SDK for one provider call, fired by the caller's signal or by our
 * own timer. The SDKs' own timeouts do not fit: OpenAI's stops at the response headers (a stalled
 * stream would hang) and is retried, Google's covers a whole stream (a long answer would be cut).
 * Here `complete()` gets one budget for the whole call, retries included, and `stream()` calls
 * `touch()` on every chunk, which turns the budget into a limit on silence.
 */
export class CallDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private fired = false;
  private readonly onCallerAbort = () => this.controller.abort(this.callerSignal?.reason);

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    if (callerSignal?.aborted) this.controller.abort(callerSignal.reason);
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.touch();
  }

  /** Restarts the timer: progress was made. */
  touch(): void {
    if (this.controller.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new DOMException('The AI provider did not answer in time.', 'TimeoutError'));
    }, this.timeoutMs);
  }

  /**
   * Settles with the promise, or rejects as soon as the signal fires: the SDKs only notice an abort
   * after a retry back-off has elapsed (which can be a server-sent `retry-after` of a minute).
   */
  race<T>(promise: Promise<T>): Promise<T> {
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(abortError(this.signal));
      if (this.signal.aborted) fail();
      else this.signal.addEventListener('abort', fail, { once: true });
    });
    // Whichever loses the race may still reject later; nobody is waiting for it then.
    promise.catch(() => undefined);
    return Promise.race([promise, aborted]);
  }

  /** Undefined while the call may go on; otherwise whether it was our timer or the caller. */
  stopReason(): 'timeout' | 'aborted' | undefined {
    if (!this.controller.signal.aborted) return undefined;
    return abortKind(this.fired, this.callerSignal);
  }

  /**
   * Ends the call: also aborts the signal, so that a stream left early (the consumer broke out of
   * the loop) releases its connection; after a complete answer the abort is a no-op.
   */
  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort(new DOMException('The call has ended.', 'AbortError'));
  }
}
