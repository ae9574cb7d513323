/** Import's public face: what app.ts wires (docs/ARCHITECTURE.md). */
export { createImportService } from './import.service';
export { importRoutes } from './import.routes';
export { createReportParser } from './report-parser';
export { importUserData, type ImportTables } from './tables';
