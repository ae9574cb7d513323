import { decimalSign, formatDecimal } from '../../../components/data/format';
import { figureSign, type PlFigure } from './calendar-grid';

/** A P/L decimal string with two decimals and its sign: '+120.50', '-45.20', '0.00'. */
export function signedPL(value: string): string {
  const text = formatDecimal(value, 2);
  return decimalSign(value) > 0 ? `+${text}` : text;
}

/** The same squeezed for a phone's calendar cell: '+120', '-1.2k'. */
export function compactPL(value: string): string {
  const amount = Number(value);
  if (!Number.isFinite(amount) || decimalSign(value) === 0) return '0';
  const size = Math.abs(amount);
  const body = size >= 1000 ? `${(size / 1000).toFixed(size >= 10_000 ? 0 : 1)}k` : size.toFixed(0);
  return `${amount > 0 ? '+' : '-'}${body}`;
}

/** A P/L of one currency ('+120.50') or of several, each with its code, side by side ('-45,000.00 JPY · +1,200.50 USD'). */
export function figureText(figure: {
  netPL: string;
  byCurrency: ReadonlyArray<{ currency: string; amount: string }> | null;
}): string {
  if (!figure.byCurrency) return signedPL(figure.netPL);
  if (figure.byCurrency.length === 0) return signedPL('0');
  return figure.byCurrency.map((part) => `${signedPL(part.amount)} ${part.currency}`).join(' · ');
}

/** The same squeezed for a phone's cell: '-45k JPY · +1.2k USD'. */
export function compactFigureText(figure: {
  netPL: string;
  byCurrency: ReadonlyArray<{ currency: string; amount: string }> | null;
}): string {
  if (!figure.byCurrency) return compactPL(figure.netPL);
  return figure.byCurrency.map((part) => `${compactPL(part.amount)} ${part.currency}`).join(' · ');
}

/** The text colour of a P/L of one or more currencies: by its sign when its amounts agree, else none. */
export function figureClass(figure: PlFigure): string {
  const sign = figureSign(figure);
  return sign > 0 ? 'text-success' : sign < 0 ? 'text-danger' : '';
}
