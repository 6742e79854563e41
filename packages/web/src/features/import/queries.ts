/** Query keys of the import screens. */
export const importKeys = {
  job: (pipelineId: string) => ['import', 'job', pipelineId] as const,
  countries: (pipelineId: string) => ['import', 'countries', pipelineId] as const,
  scheduled: ['import', 'scheduled'] as const,
};
