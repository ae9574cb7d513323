/** Auth's public face: what app.ts wires and what other modules may use (docs/ARCHITECTURE.md). */
export { createAuthService, type AuthService } from './auth.service';
export { authRoutes } from './auth.routes';
export { createUserRepository } from './user.repository';
export { createSessionGuard } from './session-guard';
export { sessionRoutes } from './session.routes';
export { createRecoveryService } from './recovery.service';
export { recoveryRoutes } from './recovery.routes';
export { authUserData, type AuthTables } from './tables';
