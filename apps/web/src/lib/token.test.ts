import { describe, expect, it } from 'vitest';
import { getToken, setToken, tokenState } from './token';

const b64 = (o: object) => btoa(JSON.stringify(o)).replaceAll('=', '').replaceAll('+', '-').replaceAll('/', '_');
const jwt = (payload: object) => `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(payload)}.sig`;

describe('the stored token', () => {
  it('is kept as JSON text under "token"', () => {
    setToken('abc.def.ghi');
    expect(localStorage.getItem('token')).toBe('"abc.def.ghi"');
    expect(getToken()).toBe('abc.def.ghi');
  });

  it('is missing, invalid, expired or valid as docs/PRODUCT.md, Session, decides', () => {
    const now = 1_800_000_000_000;
    expect(tokenState(now)).toBe('missing');
    localStorage.setItem('token', 'not json');
    expect(tokenState(now)).toBe('invalid');
    setToken('garbage');
    expect(tokenState(now)).toBe('invalid');
    setToken(jwt({ sub: 'u' }));
    expect(tokenState(now)).toBe('invalid');
    setToken(jwt({ exp: now / 1000 - 1 }));
    expect(tokenState(now)).toBe('expired');
    setToken(jwt({ exp: now / 1000 }));
    expect(tokenState(now)).toBe('valid');
    setToken(jwt({ exp: now / 1000 + 3600 }));
    expect(tokenState(now)).toBe('valid');
  });
});
