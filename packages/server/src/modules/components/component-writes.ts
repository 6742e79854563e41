import type { Component } from '@gdb/shared/components/components.schemas';
import type { AppContext } from '../../platform/context.ts';
import { type Executor, inTransaction } from '../../platform/db/transaction.ts';
import { conflict, invalid } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { definitionProblems } from '../../runtime/checks.ts';
import type { CallerAccess } from '../access/access.service.ts';
import { type Body, componentFields, sameSet, toComponent } from './component-fields.ts';
import type { componentReferences } from './component-references.ts';
import type { ComponentRow, componentsRepo } from './components.repo.ts';

/** The refusal of a save made on an older copy than the stored one. */
export const STALE = 'This component was saved by someone else since you opened it; reload it.';

/**
 * How a component version is written: the columns a body sets, the build checks of its definition
 * (docs/product.md §16.3) and of what it names, then the write in a transaction.
 */
export function componentWrites(
  ctx: AppContext,
  repo: ReturnType<typeof componentsRepo>,
  references: ReturnType<typeof componentReferences>,
) {
  const columnsOf = componentFields(repo);
  /** The columns a body sets, what they name, and the component as the build checks name it. */
  async function fieldsOf(body: Body, current: Component | null) {
    const fields = await columnsOf(body, current);
    const saved = { ...fields.definition, _id: current?._id ?? '', name: body.name, version: current?.version ?? 1 };
    return { ...fields, saved };
  }
  type Fields = Awaited<ReturnType<typeof fieldsOf>>;

  /** Refuses (422) a definition the diagram cannot be built from (docs/product.md §16.3), each problem naming the component. */
  async function assertBuilds({ saved }: Fields): Promise<void> {
    const used = (await repo.byIds(sameSet(saved.instances.map((i) => i.instanceOf)))).map(toComponent);
    const problems = definitionProblems(saved, used);
    const [first] = problems;
    if (!first) return;
    throw invalid(
      problems.map((p) => p.message).join('; '),
      problems.map((p) => ({ path: p.component, message: p.message })),
    );
  }

  /** Version 1 of a new family, as inserted. */
  const firstVersion = (columns: Awaited<ReturnType<typeof fieldsOf>>['columns'], userId: string | null) => {
    const id = newId();
    return { id, family_id: id, version: 1, ...columns, created_by: userId, updated_by: userId };
  };

  /**
   * Writes a version once what it names is checked: the caller may read every reference, and
   * each data model exists, held in the write's transaction so none is deleted under it.
   */
  async function written(
    caller: CallerAccess,
    fields: Fields,
    write: (trx: Executor) => Promise<ComponentRow | undefined>,
  ): Promise<Component> {
    const refs = fields.references;
    await references.assertReadable(ctx.db.kysely, caller, refs);
    await assertBuilds(fields);
    return inTransaction(ctx.db.kysely, async (trx) => {
      await references.assertModelsExist(trx, refs, fields.saved);
      const row = await write(trx);
      if (!row) throw conflict(STALE);
      return toComponent(row);
    });
  }

  return { fieldsOf, firstVersion, written };
}
