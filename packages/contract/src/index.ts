export * from './common';
export * from './auth';
export * from './account';
export * from './trading';
export * from './chat';
export * from './analytics';
export * from './journal';
