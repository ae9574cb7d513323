/** Settings' public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createSettingsService, type OandaCredentials, type SettingsService } from './settings.service';
export { createSettingsRepository } from './settings.repository';
export { settingsRoutes } from './settings.routes';
export { settingsUserData, type SettingsTables } from './tables';
