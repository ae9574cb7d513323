import { describe, expect, it } from 'vitest';
import { stripMarkdown } from './strip-markdown';

describe('stripMarkdown', () => {
  it('removes heading marks, keeping the heading text', () => {
    expect(stripMarkdown('# Open trades\n## Summary ##\n###### Small')).toBe('Open trades\nSummary\nSmall');
  });

  it('keeps a hash that is not a heading', () => {
    expect(stripMarkdown('Trade #123 closed\n#hashtag')).toBe('Trade #123 closed\n#hashtag');
  });

  it('removes bold, italic and strike-through marks', () => {
    expect(stripMarkdown('**Balance:** 1,000.00 and *NAV* is __high__, _really_ ~~not~~ low')).toBe(
      'Balance: 1,000.00 and NAV is high, really not low',
    );
    expect(stripMarkdown('***very*** important')).toBe('very important');
  });

  it('keeps numbers, minus signs, decimals and arithmetic intact', () => {
    expect(stripMarkdown('Realized P/L: -12.50')).toBe('Realized P/L: -12.50');
    expect(stripMarkdown('-12.50 on EUR_USD')).toBe('-12.50 on EUR_USD');
    expect(stripMarkdown('2*3 = 6 and 2 * 3 * 4 = 24')).toBe('2*3 = 6 and 2 * 3 * 4 = 24');
    expect(stripMarkdown('**-12.50** (*+3.2%*)')).toBe('-12.50 (+3.2%)');
    expect(stripMarkdown('+0.00045 pips, 1.08345')).toBe('+0.00045 pips, 1.08345');
  });

  it('keeps underscores inside instrument names and identifiers', () => {
    expect(stripMarkdown('USD_JPY and GBP_USD, field open_trade_count')).toBe(
      'USD_JPY and GBP_USD, field open_trade_count',
    );
    expect(stripMarkdown('**USD_JPY** is up')).toBe('USD_JPY is up');
  });

  it('removes inline code backticks and keeps code content literally', () => {
    expect(stripMarkdown('Use `get_trades` with `a*b*c`')).toBe('Use get_trades with a*b*c');
    expect(stripMarkdown('``code with ` tick``')).toBe('code with ` tick');
  });

  it('removes code fences and keeps the code lines unchanged', () => {
    const md = 'Before\n```json\n{ "pl": "-12.50", "note": "**raw**" }\n```\nAfter';
    expect(stripMarkdown(md)).toBe('Before\n{ "pl": "-12.50", "note": "**raw**" }\nAfter');
    expect(stripMarkdown('~~~\n# not a heading\n~~~')).toBe('# not a heading');
  });

  it('replaces links and images with their text', () => {
    expect(stripMarkdown('See [the OANDA docs](https://developer.oanda.com/ "v20") now')).toBe(
      'See the OANDA docs now',
    );
    expect(stripMarkdown('![chart](https://x/y.png) and <https://oanda.com>')).toBe('chart and https://oanda.com');
    expect(stripMarkdown('[ref link][1]')).toBe('ref link');
  });

  it('turns list bullets into plain bullets and keeps ordered numbers', () => {
    expect(stripMarkdown('- EUR_USD +12.5\n* GBP_USD -3.1\n  + nested\n1. first\n2. second')).toBe(
      '• EUR_USD +12.5\n• GBP_USD -3.1\n  • nested\n1. first\n2. second',
    );
  });

  it('keeps a leading negative number that is not a bullet', () => {
    expect(stripMarkdown('-5 trades\n- -5.25')).toBe('-5 trades\n• -5.25');
  });

  it('removes blockquote marks, also before headings and bullets', () => {
    expect(stripMarkdown('> Note: markets closed\n>> nested\n> ## Quoted heading\n> - item')).toBe(
      'Note: markets closed\nnested\nQuoted heading\n• item',
    );
    expect(stripMarkdown('Price > 1.08 now')).toBe('Price > 1.08 now');
  });

  it('turns tables into plain rows without pipes or separator lines', () => {
    const md =
      '| Trade | Instrument | P/L |\n|---|:---:|--:|\n| 101 | EUR_USD | -12.50 |\n| 102 | USD_JPY | **3.10** |';
    expect(stripMarkdown(md)).toBe('Trade · Instrument · P/L\n101 · EUR_USD · -12.50\n102 · USD_JPY · 3.10');
  });

  it('reads tables without outer pipes', () => {
    expect(stripMarkdown('a | b\n--- | ---\n1 | -2')).toBe('a · b\n1 · -2');
  });

  it('removes horizontal rules and setext underlines, collapsing the blank lines left', () => {
    expect(stripMarkdown('Title\n=====\ntext\n\n---\n\nmore\n***')).toBe('Title\ntext\n\nmore');
  });

  it('honours backslash escapes', () => {
    expect(stripMarkdown('\\*not italic\\* and 5 \\* 3 and \\# 1')).toBe('*not italic* and 5 * 3 and # 1');
  });

  it('leaves plain text untouched and normalises CRLF line ends', () => {
    expect(stripMarkdown('Your balance is 10,250.75 USD.\r\nMargin used: 12.5%')).toBe(
      'Your balance is 10,250.75 USD.\nMargin used: 12.5%',
    );
  });

  it('copes with markup cut off mid-stream', () => {
    expect(stripMarkdown('**Total')).toBe('**Total');
    expect(stripMarkdown('```py\nprint(1)')).toBe('print(1)');
  });
});
