/** The daily budget of AI provider requests per user, shared through the database (docs/ARCHITECTURE.md). */
export {
  AiBudgetExhaustedError,
  budgetExhaustedMessage,
  budgetInsightsNote,
  createAiBudget,
  type AiBudget,
} from './ai-budget';
export { aiUsageUserData, type AiUsageTables } from './tables';
