/** The accounts a rule set can watch, as My Rules and the Overview's Rules card name them: one rule, in lib. */
export { accountChoices, type AccountChoice } from '../../../lib/account-choices';
