/** The journal's public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createJournalService } from './journal.service';
export { createJournalRepository } from './journal.repository';
export { journalRoutes } from './journal.routes';
export { createJournalFactsService, tradeRef, type JournalFactsService } from './journal-facts.service';
export { createCalendarService } from './calendar.service';
export { calendarRoutes } from './calendar.routes';
export { journalUserData, type JournalDb, type JournalTables } from './tables';
