import { z } from 'zod';

/** Levels a run's log entries carry, the same as the logbook's. */
export const RUN_LOG_LEVELS = ['info', 'warn', 'error', 'success'] as const;

export const runLogEntrySchema = z.object({
  level: z.enum(RUN_LOG_LEVELS),
  message: z.string(),
  date: z.string(),
});

export type RunLogEntry = z.infer<typeof runLogEntrySchema>;

const jsonObject = z.record(z.string(), z.unknown());

/** POST /components/{id}/execute: ctx.input by input port name, and ctx.rt_context. */
export const executeBodySchema = z.object({
  payload: jsonObject.optional(),
  rt_context: jsonObject.optional(),
});

/** The run result (spec 001 §3): ctx.output by output port name, the logs and the final rt_context. */
export const runResultSchema = z.object({
  output: jsonObject,
  logs: z.array(runLogEntrySchema),
  rt_context: jsonObject,
});

export type ExecuteBody = z.infer<typeof executeBodySchema>;
export type RunResult = z.infer<typeof runResultSchema>;

/** POST /components/{id}/stop: whether a running test of the caller was cancelled. */
export const stopResultSchema = z.object({ stopped: z.boolean() });

/** GET /components/{id}/js-code and POST /components/{id}/generate. */
export const jsCodeResultSchema = z.object({ jsCode: z.string() });
