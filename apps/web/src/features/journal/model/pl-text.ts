import { formatSignedMoney } from '../../../components/data/format';
import { figureSign, type PlFigure } from './calendar-grid';

/**
 * A P/L of one currency ('+1,120.50') or of several, each with its code, side by side ('-45,000.00 JPY · +1,200.50
 * USD'), written by the app's one money formatter (components/data/format.ts).
 */
export function figureText(figure: PlFigure): string {
  if (!figure.byCurrency) return formatSignedMoney(figure.netPL);
  if (figure.byCurrency.length === 0) return formatSignedMoney('0');
  return figure.byCurrency.map((part) => formatSignedMoney(part.amount, part.currency)).join(' · ');
}

/** The text colour of a P/L of one or more currencies: by its sign when its amounts agree, else none. */
export function figureClass(figure: PlFigure): string {
  const sign = figureSign(figure);
  return sign > 0 ? 'text-success' : sign < 0 ? 'text-danger' : '';
}
