import * as m001 from './001-foundation';

/** Ordered by name; add new migrations here (never edit a released one). */
export const migrations = {
  '001-foundation': m001,
};
