import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { AuthLayout } from './auth-layout';

const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('./torus-canvas', () => {
  loaded.count += 1;
  return { default: () => <div data-testid="torus" /> };
});

function wideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

describe('the auth layout', () => {
  it('shows the form and a drawn ring first, and asks for the torus only once the page is idle', async () => {
    wideScreen();
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    render(
      <AuthLayout>
        <p>Sign in form</p>
      </AuthLayout>,
    );
    expect(screen.getByText('Sign in form')).toBeInTheDocument();
    expect(screen.getByTestId('torus-placeholder')).toBeInTheDocument();
    // After the first frame the idle callback is queued; nothing of three.js has been asked for yet.
    await waitFor(() => expect(idle).toHaveLength(1));
    expect(loaded.count).toBe(0);
    expect(screen.queryByTestId('torus')).not.toBeInTheDocument();

    act(() => idle[0]!());
    expect(await screen.findByTestId('torus')).toBeInTheDocument();
    expect(loaded.count).toBe(1);
    expect(screen.queryByTestId('torus-placeholder')).not.toBeInTheDocument();
  });

  it('never loads the torus on a narrow screen, where its panel is hidden', async () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    render(
      <AuthLayout>
        <p>Sign in form</p>
      </AuthLayout>,
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 40)));
    act(() => idle.forEach((callback) => callback()));
    expect(screen.queryByTestId('torus')).not.toBeInTheDocument();
    expect(screen.getByTestId('torus-placeholder')).toBeInTheDocument();
  });
});
