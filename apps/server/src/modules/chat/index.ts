/** Chat's public face: what app.ts wires (docs/ARCHITECTURE.md). */
export { createChatModule } from './chat.module';
export { chatRoutes } from './chat.routes';
export { chatAnswerRoutes } from './chat-answer.routes';
export { chatUserData, type ChatTables } from './tables';
