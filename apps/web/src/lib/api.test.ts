import { describe, expect, it, vi } from 'vitest';
import { fakeApi, failure, ok } from '../test/fake-api';
import { ApiError, authFetch, authRequest, authUpload, failureMessage, publicRequest } from './api';
import type * as token from './token';
import { logout } from './token';

vi.mock('./token', async (original) => ({ ...(await original<typeof token>()), logout: vi.fn() }));

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => error,
  );

describe('the API client', () => {
  it('sends a GET payload as query parameters and other payloads as a JSON body, resolving with the body', async () => {
    const api = fakeApi({ '/x': () => ok({ success: true, message: 'fine', n: 1 }) });
    await expect(publicRequest('GET', '/x', { page: 2, limit: 10 })).resolves.toEqual({
      success: true,
      message: 'fine',
      n: 1,
    });
    await publicRequest('POST', '/x', { a: 'b' });
    expect(api.calls.map((c) => [c.method, c.url.search, c.body])).toEqual([
      ['GET', '?page=2&limit=10', undefined],
      ['POST', '', { a: 'b' }],
    ]);
    expect(api.calls[0]!.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it("fails with the server's message, status and code on anything but HTTP 200", async () => {
    fakeApi({ '/x': () => failure(409, 'Username already exists.', 'TAKEN') });
    const error = await caught(publicRequest('POST', '/x'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Username already exists.', status: 409, code: 'TAKEN' });
  });

  it("says 'Unexpected response code: {status}' when the server gives no message", async () => {
    fakeApi({ '/x': () => ({ status: 201, body: { success: true } }) });
    expect(await caught(publicRequest('GET', '/x'))).toMatchObject({
      message: 'Unexpected response code: 201',
      status: 201,
    });
  });

  it("fails with the network error's message, or 'An error occurred'", async () => {
    fakeApi({
      '/a': () => Promise.reject(new TypeError('Failed to fetch')),
      '/b': () => Promise.reject(new Error('')),
    });
    expect(await caught(publicRequest('GET', '/a'))).toMatchObject({ message: 'Failed to fetch', status: undefined });
    expect(await caught(publicRequest('GET', '/b'))).toMatchObject({ message: 'An error occurred' });
  });

  it('sends the bearer token, and logs out when the server rejects the session', async () => {
    localStorage.setItem('token', JSON.stringify('jwt-1'));
    const api = fakeApi({ '/me': () => failure(401, 'Your session has ended.'), '/ok': () => ok({}) });
    await authRequest('GET', '/ok');
    expect(logout).not.toHaveBeenCalled();
    expect(await caught(authRequest('GET', '/me'))).toMatchObject({ message: 'Your session has ended.', status: 401 });
    expect(api.calls[1]!.headers.Authorization).toBe('Bearer jwt-1');
    expect(logout).toHaveBeenCalledTimes(1);
    await authFetch('/me', { headers: { Accept: 'text/event-stream' } });
    expect(logout).toHaveBeenCalledTimes(2);
  });

  it('never logs out from the helper without auth', async () => {
    vi.mocked(logout).mockClear();
    fakeApi({ '/login': () => failure(401, 'Invalid username or password.') });
    await caught(publicRequest('POST', '/login'));
    expect(logout).not.toHaveBeenCalled();
  });

  it("gives a form the call's message, or the form's own text for anything else", () => {
    expect(failureMessage(new ApiError('Server says no', 400), 'Fallback')).toBe('Server says no');
    expect(failureMessage(new TypeError('boom'), 'Fallback')).toBe('Fallback');
  });

  it('uploads a form with the bearer token and its progress, failing like authRequest (code, details, 401 logout)', async () => {
    localStorage.setItem('token', JSON.stringify('tok-1'));
    vi.mocked(logout).mockClear();
    let reply: ReturnType<typeof ok> = ok({ success: true, message: 'read', importId: 'i1' });
    const api = fakeApi({ 'POST /up': () => reply });
    const form = new FormData();
    form.append('serverUtcOffset', '+02:00');
    form.append('file', new File(['abcdefgh'], 'r.htm'));
    const progress: [number, number][] = [];
    let sent = 0;
    await expect(
      authUpload('/up', form, { onProgress: (a, b) => progress.push([a, b]), onSent: () => sent++ }),
    ).resolves.toEqual({ success: true, message: 'read', importId: 'i1' });
    expect(api.calls[0]!.headers).toEqual({ Authorization: 'Bearer tok-1' });
    expect(api.calls[0]!.form!.get('serverUtcOffset')).toBe('+02:00');
    expect(progress).toEqual([
      [7, 14],
      [14, 14],
    ]);
    expect(sent).toBe(1);

    reply = {
      status: 400,
      body: {
        success: false,
        message: 'Map the columns.',
        code: 'MISSING_COLUMN',
        requestId: 'r',
        details: { columns: ['A'] },
      },
    };
    const error = await caught(authUpload('/up', form));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      message: 'Map the columns.',
      status: 400,
      code: 'MISSING_COLUMN',
      details: { columns: ['A'] },
    });
    expect(logout).not.toHaveBeenCalled();

    reply = failure(401, 'Session expired.');
    expect(await caught(authUpload('/up', form))).toMatchObject({ status: 401, message: 'Session expired.' });
    expect(logout).toHaveBeenCalledTimes(1);
  });
});
