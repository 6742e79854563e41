import { z } from 'zod';

/** Levels a run's log entries carry, the same as the logbook's. */
export const RUN_LOG_LEVELS = ['info', 'warn', 'error', 'success'] as const;

export const runLogEntrySchema = z.object({
  level: z.enum(RUN_LOG_LEVELS).describe('info, warn, error or success.'),
  message: z.string().describe('The text the code logged.'),
  date: z.string().describe('When (ISO date-time).'),
});

export type RunLogEntry = z.infer<typeof runLogEntrySchema>;

const jsonObject = z.record(z.string(), z.unknown());

/** POST /components/{id}/execute: ctx.input by input port name, and ctx.rt_context. */
export const executeBodySchema = z.object({
  payload: jsonObject.optional().describe('ctx.input: a value per input port name.'),
  rt_context: jsonObject.optional().describe('ctx.rt_context: the run context the code reads.'),
  runId: z
    .uuid()
    .optional()
    .describe(
      "A new id the editor makes for this run: its log lines are sent on the live channel's `testLogs` collection, filtered by `runId`, while it runs.",
    ),
});

/** The run result (docs/product.md §16.5): ctx.output by output port name, the logs and the final rt_context. */
export const runResultSchema = z.object({
  output: jsonObject.describe('ctx.output: a value per output port name.'),
  logs: z.array(runLogEntrySchema).describe('What the code logged, in order.'),
  rt_context: jsonObject.describe('ctx.rt_context as the run left it.'),
});

export type ExecuteBody = z.infer<typeof executeBodySchema>;
export type RunResult = z.infer<typeof runResultSchema>;

/** POST /components/{id}/stop: whether a running test of the caller was cancelled. */
export const stopResultSchema = z.object({
  stopped: z.boolean().describe('True when a running test was cancelled; false when none was running.'),
});

/** GET /components/{id}/js-code and POST /components/{id}/generate. */
export const jsCodeResultSchema = z.object({
  jsCode: z.string().describe('The program the component version compiles to, as the sandbox runs it.'),
});
