/** The playbooks' public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createPlaybooksService } from './playbooks.service';
export { createPlaybooksRepository } from './playbooks.repository';
export { playbooksRoutes } from './playbooks.routes';
export { playbooksUserData, type PlaybooksDb } from './tables';
