import { describe, expect, it, vi } from 'vitest';
import { passwordMatchHint, validateRegistration } from './validation';

const form = {
  username: 'trader',
  email: 'trader@example.com',
  password: 'secret pass',
  confirmPassword: 'secret pass',
};
const free = () => ({ usernameExists: vi.fn(async () => false), emailExists: vi.fn(async () => false) });

describe('validateRegistration runs required, username, email, match in that order', () => {
  it('requires all four fields before any lookup', async () => {
    const checks = free();
    for (const key of Object.keys(form) as (keyof typeof form)[])
      expect(await validateRegistration({ ...form, [key]: '' }, checks)).toBe('All fields are required.');
    expect(checks.usernameExists).not.toHaveBeenCalled();
  });

  it('reports a taken username before a taken email and before a mismatch', async () => {
    const checks = { usernameExists: vi.fn(async () => true), emailExists: vi.fn(async () => true) };
    expect(await validateRegistration({ ...form, confirmPassword: 'other' }, checks)).toBe('Username already exists.');
    expect(checks.emailExists).not.toHaveBeenCalled();
  });

  it('reports a taken email before a mismatch', async () => {
    const checks = { usernameExists: vi.fn(async () => false), emailExists: vi.fn(async () => true) };
    expect(await validateRegistration({ ...form, confirmPassword: 'other' }, checks)).toBe('Email already exists.');
  });

  it('reports a mismatch last, and passes a good form', async () => {
    expect(await validateRegistration({ ...form, confirmPassword: 'other' }, free())).toBe('Passwords do not match');
    expect(await validateRegistration(form, free())).toBeNull();
  });
});

describe('passwordMatchHint', () => {
  it('says nothing until Confirm Password is typed, then match or not', () => {
    expect(passwordMatchHint('a', '')).toBeNull();
    expect(passwordMatchHint('abc', 'abc')).toEqual({ text: 'Passwords match', ok: true });
    expect(passwordMatchHint('abc', 'abd')).toEqual({ text: 'Passwords do not match', ok: false });
  });
});
