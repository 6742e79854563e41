import type { AuthContext } from '../src/platform/auth/access-control.ts';
import { superAdmin } from './factories.ts';
import type { TestApp } from './test-app.ts';

let chains = 0;

/** A caller acting as this user (the services take who acts, as the routes hand it to them). */
export function actingAs(user: { id: string; user_name: string; roles: string[] }): AuthContext {
  return { userId: user.id, sessionId: 'test', userName: user.user_name, roles: user.roles };
}

/**
 * Three drafts, each pointing at the one before: a data model, a component whose ports use it,
 * and a master pipeline running the component. Names are unique per call.
 */
export async function versionChain(t: TestApp, userId: string) {
  chains += 1;
  const schema = await t.services.schemas.create({
    name: `Row ${chains}`,
    jsonSchema: { type: 'object', properties: { code: { type: 'string' } } },
    userId,
  });
  const component = await t.services.components.save(superAdmin(userId), {
    name: `Copy ${chains}`,
    kind: 'instruction',
    inputs: [{ name: 'in', inputSchema: schema._id }],
    outputs: [{ name: 'out', outputSchema: schema._id }],
    jsCode: 'ctx.output.out = ctx.input.in;',
  });
  const pipelineId = await t.services.pipelines.create({
    name: `Chain ${chains}`,
    isMaster: true,
    component: component._id,
    dataSources: [],
    dataSinks: [],
    createdBy: userId,
  });
  return { schema, component, pipelineId };
}
