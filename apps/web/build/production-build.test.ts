import { describe, expect, it } from 'vitest';
import config from '../vite.config';

/* Issue 12: the production build publishes no source maps (the server also refuses to serve any *.map). */
describe('the production build', () => {
  it('writes no source maps', () => {
    expect(config.build?.sourcemap).toBe(false);
  });
});
