import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { render, screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';

/**
 * Renders a screen as the app does: a fresh query cache with the app's defaults (no retries, no refetch on focus,
 * 30 s fresh), a router at `path` (with the router `state` a link gave, if any) and the toast container.
 */
export function renderWithProviders(ui: ReactElement, { path = '/', state }: { path?: string; state?: unknown } = {}) {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  return {
    client,
    ...render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[state === undefined ? path : { pathname: path, state }]}>{ui}</MemoryRouter>
        <ToastContainer />
      </QueryClientProvider>,
    ),
  };
}

/** A modal traps focus once its opening transition ends; typing before then could land in another field. */
export async function findOpenDialog() {
  const dialog = await screen.findByRole('dialog');
  await waitFor(() => {
    expect(dialog).toHaveClass('show');
    expect(dialog.contains(document.activeElement)).toBe(true);
  });
  return dialog;
}
