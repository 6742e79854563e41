/** The environment a server or worker process starts with (server-env.mjs). */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
