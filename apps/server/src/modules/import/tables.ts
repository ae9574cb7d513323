import { userRowsDeletion } from '../../db/user-data';
import type { Database } from '../../db/schema';

/** The tables import owns: no other module reads or writes them (db/slice.ts). */
export type ImportTables = Pick<Database, 'imports' | 'import_mappings' | 'contract_sizes'>;

/** The module's part of an account's deletion (db/user-data.ts): the user's rows of its tables. */
export const importUserData = userRowsDeletion<ImportTables>(['imports', 'import_mappings', 'contract_sizes']);
