/** The playbooks' public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createPlaybooksService, type PlaybooksService } from './playbooks.service';
export { createPlaybooksRepository } from './playbooks.repository';
export { playbooksRoutes } from './playbooks.routes';
export type { AttachmentPorts, MissedCandles, PlaybookItemTarget } from './ports';
export { playbooksUserData, type PlaybooksDb, type PlaybooksTables } from './tables';
