import { useState } from 'react';
import { toast } from 'react-toastify';
import { failureMessage } from './api';

/**
 * A form's submit: `busy` while the action runs; a failure toasts the call's own message, or the form's text for
 * anything else (docs/PRODUCT.md, Messages).
 */
export function useSubmit(fallback: string) {
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      toast.error(failureMessage(error, fallback));
    } finally {
      setBusy(false);
    }
  }
  return { busy, run };
}
