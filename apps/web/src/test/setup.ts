import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy and waitFor wait for their condition up to this long (Testing Library's default is 1 s). A page that
// renders, fetches from the fake API and renders again can take longer on a loaded machine; a test whose condition
// comes early is not slowed, and one whose condition never comes still fails well inside the test's own limit.
configure({ asyncUtilTimeout: 10_000 });

// jsdom has no matchMedia; the auth look asks it whether to show the torus panel (a narrow screen: no).
beforeEach(() => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: false,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});
