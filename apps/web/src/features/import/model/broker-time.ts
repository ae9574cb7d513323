import { BROKER_TIMES, type BrokerTimeName, type ImportPreview } from '@pipsense/contract';
import { BROKER_TIME_LABELS } from '../../../lib/broker-time';
import { offsetLabel } from './utc-offsets';

/** The broker-time choice of the file step: a rule, or '' for the account's remembered one (new: ny-close-us). */
export type BrokerTimeChoice = BrokerTimeName | '';

export const BROKER_TIME_CHOICES: ReadonlyArray<{ value: BrokerTimeChoice; label: string }> = [
  { value: '', label: 'As last time for this account (else UTC+2/+3 with New York)' },
  ...BROKER_TIMES.map((value) => ({ value, label: BROKER_TIME_LABELS[value] })),
];

export const isBrokerTimeChoice = (value: string): value is BrokerTimeChoice =>
  value === '' || (BROKER_TIMES as readonly string[]).includes(value);

/** How the preview's times were read: 'UTC+03:00', or the rule with the offsets it used. */
export function serverTimeLabel(preview: Pick<ImportPreview, 'brokerTime' | 'serverUtcOffset' | 'serverUtcOffsets'>) {
  if (preview.brokerTime === 'fixed' && preview.serverUtcOffset) return offsetLabel(preview.serverUtcOffset);
  const used = preview.serverUtcOffsets.map(offsetLabel).join(' and ');
  return `${BROKER_TIME_LABELS[preview.brokerTime]}${used ? `: ${used} in this report` : ''}`;
}
