/** A page of a list as the routes ask for it (1-based) and answer it: the trade list and the accounts list. */
export interface PageRequest {
  page: number;
  limit: number;
}

export interface Paged<T> {
  data: T[];
  /** At least 1, also for an empty list. */
  pages: number;
  total: number;
}
