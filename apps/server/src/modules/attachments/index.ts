/** Attachments' public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createAttachmentsService } from './attachments.service';
export { createAttachmentsRepository } from './attachments.repository';
export { attachmentsRoutes } from './attachments.routes';
export { createDeletionWorker, type DeletionWorker } from './deletion-worker';
export { createS3Store } from './object-store';
export { createOrphanSweep, type OrphanSweep } from './orphan-sweep';
export type { AttachmentItemsPort } from './ports';
export { attachmentsUserData, type AttachmentsDb } from './tables';
