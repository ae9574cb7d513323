export * from './common';
export * from './auth';
export * from './settings';
export * from './trading';
export * from './chat';
export * from './analytics';
export * from './tags';
export * from './journal';
