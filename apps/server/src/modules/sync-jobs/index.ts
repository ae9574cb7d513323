/** Background sync's public face: what app.ts wires (docs/ARCHITECTURE.md). */
export { createSyncJobs, type SyncJobs, type SyncJobsOptions } from './sync-jobs.service';
export { syncRoutes } from './sync.routes';
export type { SyncJobsTables } from './tables';
