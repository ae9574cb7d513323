import { useEffect } from 'react';
import { toast } from 'react-toastify';

/**
 * docs/PRODUCT.md, Messages: a failed trade or account fetch toasts the server's message. Keyed by the failure time so
 * that each new failure toasts once (not every render), and by message so a refetch failing the same way does not stack
 * toasts.
 */
export function useErrorToast(scope: string, error: Error | null, failedAt: number) {
  const message = error?.message;
  useEffect(() => {
    if (message) toast.error(message, { toastId: `${scope}:${message}` });
  }, [scope, message, failedAt]);
}
