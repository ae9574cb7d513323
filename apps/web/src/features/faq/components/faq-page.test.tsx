import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { FaqPage } from './faq-page';
import { PublicFaqPage } from './public-faq-page';

const questions = () => screen.getAllByRole('heading', { level: 3 }).map((h) => within(h).getByRole('button'));

describe.each([
  ['signed-in', <FaqPage />],
  ['public', <PublicFaqPage />],
])('the %s FAQ', (_, page) => {
  it("is titled 'PipSense FAQ' with 10 questions, the first open", () => {
    renderWithProviders(page);
    expect(screen.getByRole('heading', { name: 'PipSense FAQ' })).toBeVisible();
    const buttons = questions();
    expect(buttons).toHaveLength(10);
    expect(buttons.map((b) => b.getAttribute('aria-expanded'))).toEqual(['true', ...Array(9).fill('false')]);
  });

  it('opens one answer at a time', async () => {
    renderWithProviders(page);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'How is my data kept secure?' }));
    const expanded = questions().filter((b) => b.getAttribute('aria-expanded') === 'true');
    expect(expanded.map((b) => b.textContent)).toEqual(['How is my data kept secure?']);
    expect(screen.getByText(/AES-256-GCM/)).toBeInTheDocument();
  });
});

describe('the FAQ answers', () => {
  it('tell the truth about sign-up, security and support', () => {
    renderWithProviders(<FaqPage />);
    const text = document.body.textContent ?? '';
    expect(text).toMatch(/emails you a link to confirm your address \(valid for 7 days\)/);
    expect(text).toMatch(/Forgot your password\?/);
    expect(text).toMatch(/My Account → Manage API Access/);
    expect(text).toMatch(/argon2id/);
    expect(text).toMatch(/PipSense itself serves plain HTTP/);
    expect(text).toMatch(/does not use a vector search index/);
    expect(text).toMatch(/Click Feedback at the top of any page/);
    expect(text).not.toMatch(/role-based/i);
  });
});

describe('the public FAQ', () => {
  it("links back to the sign-in page with 'Back to sign in'", () => {
    renderWithProviders(<PublicFaqPage />);
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });
});
