import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { lazyChunk } from '../components/errors/lazy-chunk';
import { ErrorBoundary } from '../components/errors/route-error-boundary';
import { RouteScreen } from './route-screen';

const CHUNK_URL = 'http://localhost:3000/static/js/trades-page-a1b2c3.js';

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  // React and the boundary log what they catch; keep the output readable and check what was logged.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  document.getElementById('chunk-files')?.remove();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  consoleError.mockRestore();
});

function Fine() {
  return <p>Trades screen</p>;
}

/** The app's routes in miniature: a screen loaded on demand at /trades, another at /faq, each in a RouteScreen. */
function renderRoutes(load: () => Promise<{ Screen: typeof Fine }>, start = '/trades') {
  const Lazy = lazyChunk('trades-page', load, 'Screen');
  return render(
    <MemoryRouter initialEntries={[start]}>
      <Link to="/faq">FAQ</Link>
      <Routes>
        <Route
          path="/trades"
          element={
            <RouteScreen>
              <Lazy />
            </RouteScreen>
          }
        />
        <Route
          path="/faq"
          element={
            <RouteScreen>
              <p>FAQ screen</p>
            </RouteScreen>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

describe('RouteScreen', () => {
  it('shows the screen once its chunk has loaded', async () => {
    renderRoutes(() => Promise.resolve({ Screen: Fine }));
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(await screen.findByText('Trades screen')).toBeInTheDocument();
  });

  it("shows a chunk that failed to load as 'Loading chunk {id} failed' with its type and address, and a Reload", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(null, { status: 404 })));
    renderRoutes(() => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${CHUNK_URL}`)));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This screen could not be loaded');
    expect(alert).toHaveTextContent('Loading chunk trades-page failed.');
    expect(alert).toHaveTextContent(`(missing: ${CHUNK_URL})`);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(
      `Loading chunk trades-page failed.\n(missing: ${CHUNK_URL})`,
      expect.objectContaining({ name: 'ChunkLoadError' }),
      expect.any(String),
    );
  });

  it('reports a chunk that does not arrive within 120000 ms as a time-out', async () => {
    const script = Object.assign(document.createElement('script'), { type: 'application/json', id: 'chunk-files' });
    script.textContent = JSON.stringify({ 'trades-page': 'static/js/trades-page-a1b2c3.js' });
    document.head.append(script);
    vi.useFakeTimers();
    renderRoutes(() => new Promise<never>(() => {}));
    await act(() => vi.advanceTimersByTimeAsync(119_000));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    const address = new URL('/static/js/trades-page-a1b2c3.js', document.baseURI).href;
    expect(screen.getByRole('alert')).toHaveTextContent(`Loading chunk trades-page failed.(timeout: ${address})`);
  });

  it('keeps a failure to its route: the layout links still work and the next screen renders', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    renderRoutes(() => Promise.reject(new TypeError(`Failed to fetch dynamically imported module: ${CHUNK_URL}`)));
    expect(await screen.findByRole('alert')).toHaveTextContent(`(error: ${CHUNK_URL})`);
    await userEvent.setup().click(screen.getByRole('link', { name: 'FAQ' }));
    expect(await screen.findByText('FAQ screen')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('ErrorBoundary', () => {
  function Broken(): never {
    throw new Error('Cannot read properties of undefined');
  }

  it('shows a screen that throws while rendering with its message and a Reload button that reloads', async () => {
    const reload = vi.fn();
    render(
      <ErrorBoundary onReload={reload}>
        <Broken />
      </ErrorBoundary>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Something went wrong on this screen');
    expect(alert).toHaveTextContent('Cannot read properties of undefined');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('shows its fallback instead, where a part can go without (the torus beside the login form)', () => {
    render(
      <>
        <ErrorBoundary fallback={null}>
          <Broken />
        </ErrorBoundary>
        <p>Sign in form</p>
      </>,
    );
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Sign in form')).toBeInTheDocument();
  });
});
