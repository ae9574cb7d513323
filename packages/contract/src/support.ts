import { z } from 'zod';

/** The in-app feedback button's message (stored, and mailed to the server's SUPPORT_EMAIL when set). */
export const FEEDBACK_MAX = 5000;
export const feedbackBody = z.object({
  message: z
    .string({ error: 'Write a message first.' })
    .trim()
    .min(1, 'Write a message first.')
    .max(FEEDBACK_MAX, `A feedback message can be at most ${FEEDBACK_MAX} characters.`),
});
