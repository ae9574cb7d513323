import type { Generated } from 'kysely';

/** Times are UTC ISO-8601 text; broker decimals are text so that no digit is lost. */
export interface UsersTable {
  id: string;
  username: string;
  username_key: string;
  email: string;
  password_hash: string;
  created_at: string;
  updated_at: string;
}

export interface UserInfoTable {
  user_id: string;
  default_ai_platform: string;
  default_trading_platform: string;
  oanda_access_token: string | null;
  oanda_account_id: string;
  oanda_mode: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  user_info: UserInfoTable;
}

export type Dialect = 'sqlite' | 'postgres';
export type { Generated };
