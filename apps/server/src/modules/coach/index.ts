/** The coach's public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createCoachSettingsStore } from './coach-settings';
export { coachSettingsRoutes } from './coach-settings.routes';
export { coachUserData, type CoachTables } from './tables';
export { createTradeReviewService } from './trade-review.service';
export { createTradeReviewRepository } from './trade-review.repository';
export { tradeReviewRoutes } from './trade-review.routes';
export { createWeeklyService, type WeeklyService } from './weekly-service';
export { weeklyRoutes } from './weekly.routes';
export { createCoachPatterns } from './patterns';
export { createPatternBookThreads } from './pattern-book-threads';
export { coachPatternsRoutes } from './patterns.routes';
