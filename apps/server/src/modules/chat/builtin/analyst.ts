import type { Attachment, ChatTopic } from '@pipsense/contract';
import type { ChatTools, ToolContext } from '../tools/chat-tools';
import { ToolInputError } from '../../../integrations/llm';
import {
  accountAnswer,
  candlesAnswer,
  compareTagsAnswer,
  helpAnswer,
  performanceAnswer,
  tradesAnswer,
} from './answers';
import { parseIntent } from './intent';
import { ruleBreaksAnswer, ruleTodayAnswer, ruleTrackAnswer } from './rule-answers';
import { patternsAnswer, tradeReviewAnswer, weeklyReviewAnswer } from './coach-answers';
import { pair, pl, when } from './format';

/** The model label of answers written without a language model. */
export const BUILTIN_MODEL = 'built-in analyst';

export interface BuiltinAnswer {
  text: string;
  attachments: Attachment[];
}

/**
 * Answers without a language model: reads the question's intent, calls the same tools the models
 * call, and writes the numbers out. Tool failures (OANDA not connected, refused…) propagate as they
 * do for a model, so that the caller explains them the same way.
 */
export function createBuiltinAnalyst(tools: ChatTools) {
  return {
    async answer(topic: ChatTopic, message: string, ctx: ToolContext): Promise<BuiltinAnswer> {
      const intent = parseIntent(topic, message, ctx.now);
      switch (intent.kind) {
        case 'trades': {
          try {
            const { result, attachments } = await tools.trades(ctx, intent.args);
            return { text: tradesAnswer(result, ctx.timeZone), attachments };
          } catch (error) {
            // A tag name the trader does not have: say which tags there are.
            if (error instanceof ToolInputError) return { text: error.message, attachments: [] };
            throw error;
          }
        }
        case 'compareTags': {
          const { result, attachments } = await tools.compareTags(ctx, intent.args);
          return { text: compareTagsAnswer(result, intent.rank), attachments };
        }
        case 'performance': {
          const { result, attachments } = await tools.performance(ctx, intent.args);
          return { text: performanceAnswer(result, ctx.timeZone), attachments };
        }
        case 'account': {
          const { result, attachments } = await tools.accounts(ctx, intent.args);
          return { text: accountAnswer(result, intent.focus), attachments };
        }
        case 'candles': {
          const { result, attachments } = await tools.candles(ctx, intent.args);
          return { text: candlesAnswer(result, ctx.timeZone), attachments };
        }
        case 'ruleToday': {
          const { result } = await tools.ruleStatus(ctx, {});
          return { text: ruleTodayAnswer(result, ctx.timeZone), attachments: [] };
        }
        case 'ruleTrack': {
          const { result } = await tools.ruleStatus(ctx, {});
          return { text: ruleTrackAnswer(result, ctx.timeZone, intent.firm), attachments: [] };
        }
        case 'ruleBreaks': {
          const { result } = await tools.ruleBreaks(ctx, {});
          return { text: ruleBreaksAnswer(result), attachments: [] };
        }
        case 'coachFocus': {
          const { result } = await tools.patterns(ctx, intent.args);
          return { text: patternsAnswer(result), attachments: [] };
        }
        case 'tradeWhy': {
          const { result: found } = await tools.trades(ctx, intent.args);
          const trade = found.trades[0];
          if (!trade) return { text: tradesAnswer(found, ctx.timeZone), attachments: [] };
          const { result } = await tools.tradeReview(ctx, { account_id: trade.accountId, trade_id: trade.tradeId });
          const heading =
            `${pair(trade.instrument)} trade ${trade.tradeId}, closed ${when(trade.closeTime, ctx.timeZone)} ` +
            `at ${pl(trade.pl, trade.currency)}:`;
          return { text: tradeReviewAnswer(result, heading), attachments: [] };
        }
        case 'weeklyReview': {
          const { result } = await tools.weeklyReview(ctx, intent.week ? { week: intent.week } : {});
          return { text: weeklyReviewAnswer(result), attachments: [] };
        }
        case 'help':
          return { text: helpAnswer(topic, intent.otherTopic), attachments: [] };
      }
    },
  };
}
export type BuiltinAnalyst = ReturnType<typeof createBuiltinAnalyst>;
