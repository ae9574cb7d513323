import { DEFAULT_SERVER_UTC_OFFSET } from '@pipsense/contract';

/**
 * The UTC offsets real time zones use (standard and summer time), from −12:00 to +14:00: the whole hours and the
 * half and quarter hours of India, Iran, Newfoundland, Nepal, the Chatham Islands and the like.
 */
export const UTC_OFFSETS: readonly string[] = [
  '-12:00',
  '-11:00',
  '-10:00',
  '-09:30',
  '-09:00',
  '-08:00',
  '-07:00',
  '-06:00',
  '-05:00',
  '-04:00',
  '-03:30',
  '-03:00',
  '-02:30',
  '-02:00',
  '-01:00',
  '+00:00',
  '+01:00',
  '+02:00',
  '+03:00',
  '+03:30',
  '+04:00',
  '+04:30',
  '+05:00',
  '+05:30',
  '+05:45',
  '+06:00',
  '+06:30',
  '+07:00',
  '+08:00',
  '+08:45',
  '+09:00',
  '+09:30',
  '+10:00',
  '+10:30',
  '+11:00',
  '+12:00',
  '+12:45',
  '+13:00',
  '+13:45',
  '+14:00',
];

export const DEFAULT_OFFSET = DEFAULT_SERVER_UTC_OFFSET;

/** '+02:00' → 'UTC+02:00', '-05:00' → 'UTC−05:00' (a true minus sign, as time-zone lists print it). */
export const offsetLabel = (offset: string) => `UTC${offset.replace('-', '−')}`;
