/** The account fixtures live in test/ (the Settings screen lists imported accounts too). */
export * from '../../test/account-fixtures';
