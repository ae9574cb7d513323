/** Support's public face: what app.ts wires (docs/ARCHITECTURE.md). */
export { createSupportService } from './support.service';
export { supportRoutes } from './support.routes';
export { supportUserData, type SupportTables } from './tables';
