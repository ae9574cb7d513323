/**
 * The rules module's public face (docs/ARCHITECTURE.md): rule sets of prop-firm challenges and personal risk rules,
 * stored per account, and the pure rule engine (`engine/`, docs/rules.md).
 */
export { createRulesService } from './rules.service';
export { createRulesRepository } from './rules.repository';
export { createRuleDayStore } from './day-store';
export { rulesRoutes } from './rules.routes';
export { rulesUserData, type RulesTables } from './tables';
