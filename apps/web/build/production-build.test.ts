import { describe, expect, it } from 'vitest';
import config from '../vite.config';

/*
 * SECURITY.md, Attacks through the browser: the production build publishes no source maps (the server also refuses to
 * serve any *.map).
 */
describe('the production build', () => {
  it('writes no source maps', () => {
    expect(config.build?.sourcemap).toBe(false);
  });
});
