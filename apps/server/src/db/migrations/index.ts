import * as m001 from './001-foundation';
import * as m002 from './002-trading';
import * as m003 from './003-chat';
import * as m004 from './004-analytics';
import * as m005 from './005-trade-query-indexes';
import * as m006 from './006-account-and-trade-keys';
import * as m007 from './007-journal';
import * as m008 from './008-journal-starter-tags';
import * as m009 from './009-excursions';
import * as m010 from './010-trade-list';
import * as m011 from './011-trade-list-indexes';
import * as m012 from './012-metatrader-import';
import * as m013 from './013-data-version-snapshots';
import * as m014 from './014-sync-schedules';
import * as m015 from './015-trade-list-version';
import * as m016 from './016-chat-answer-status';
import * as m019 from './019-sessions-and-recovery';
import * as m020 from './020-ai-usage';
import * as m021 from './021-trade-write-indexes';
import * as m022 from './022-broker-time';
import * as m023 from './023-balance-operations';
import * as m024 from './024-account-transactions';
import * as m025 from './025-candles';
import * as m026 from './026-home-currency';
import * as m027 from './027-rule-sets';
import * as m028 from './028-rule-alerts';
import * as m029 from './029-rule-days';
import * as m030 from './030-playbooks';
import * as m031 from './031-attachments';
import * as m032 from './032-coach';
import * as m033 from './033-trade-reductions';
import * as m034 from './034-trade-review-filters';
import * as m035 from './035-trade-list-keys';
import * as m036 from './036-trade-list-counts';

/** Ordered by name; add new migrations here (never edit a released one). */
export const migrations = {
  '001-foundation': m001,
  '002-trading': m002,
  '003-chat': m003,
  '004-analytics': m004,
  '005-trade-query-indexes': m005,
  '006-account-and-trade-keys': m006,
  '007-journal': m007,
  '008-journal-starter-tags': m008,
  '009-excursions': m009,
  '010-trade-list': m010,
  '011-trade-list-indexes': m011,
  '012-metatrader-import': m012,
  '013-data-version-snapshots': m013,
  '014-sync-schedules': m014,
  '015-trade-list-version': m015,
  '016-chat-answer-status': m016,
  '019-sessions-and-recovery': m019,
  '020-ai-usage': m020,
  '021-trade-write-indexes': m021,
  '022-broker-time': m022,
  '023-balance-operations': m023,
  '024-account-transactions': m024,
  '025-candles': m025,
  '026-home-currency': m026,
  '027-rule-sets': m027,
  '028-rule-alerts': m028,
  '029-rule-days': m029,
  '030-playbooks': m030,
  '031-attachments': m031,
  '032-coach': m032,
  '033-trade-reductions': m033,
  '034-trade-review-filters': m034,
  '035-trade-list-keys': m035,
  '036-trade-list-counts': m036,
};
