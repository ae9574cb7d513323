/** Issue 12, finding 4: the daily budget of AI provider requests per user, shared through the database. */
export {
  AiBudgetExhaustedError,
  budgetExhaustedMessage,
  budgetInsightsNote,
  createAiBudget,
  type AiBudget,
} from './ai-budget';
