import type { Component } from '@gdb/shared/components/components.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Spin } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { errorText } from '../../../ground/request/failure.ts';
import { componentsByIds, editorKeys, schemasByIds } from '../api.ts';
import { buildDiagram, type Diagram, DiagramError, diagramNeeds } from './build-diagram.ts';

const Schematic = lazy(() => import('./Schematic.tsx').then((m) => ({ default: m.Schematic })));

/** The component versions its instances run, then every data model the diagram shows. */
function useDiagramSources(component: Component) {
  const ids = diagramNeeds(component, []).components;
  const used = useQuery({
    queryKey: editorKeys.many(ids),
    queryFn: ({ signal }) => componentsByIds(ids, signal),
    retry: false,
  });
  const models = diagramNeeds(component, used.data ?? []).models;
  const schemas = useQuery({
    queryKey: editorKeys.schemas(models),
    queryFn: ({ signal }) => schemasByIds(models, signal),
    enabled: used.isSuccess,
    retry: false,
  });
  return { used, schemas };
}

type Built = { diagram: Diagram } | { problems: string[] };

/** 'View component schematic': the diagram, or every problem that keeps it from being drawn. */
export function SchematicSection({
  component,
  inside,
  onOpen,
}: {
  component: Component;
  inside: boolean;
  onOpen: (id: string) => void;
}) {
  const { used, schemas } = useDiagramSources(component);
  const built = useMemo((): Built | null => {
    if (!used.data || !schemas.data) return null;
    try {
      return {
        diagram: buildDiagram({
          component,
          used: new Map(used.data.map((c) => [c._id, c])),
          models: new Map(schemas.data.map((s) => [s._id, s.jsonSchema])),
          inside,
        }),
      };
    } catch (error) {
      if (error instanceof DiagramError) return { problems: error.problems };
      throw error;
    }
  }, [component, used.data, schemas.data, inside]);
  const failure = used.error ?? schemas.error;
  if (failure) return <Alert type="error" showIcon title={errorText(failure)} />;
  if (!built) return <Spin />;
  if ('problems' in built) {
    return (
      <Alert
        type="error"
        showIcon
        title={
          <ul className="gdb-diagram-problems">
            {built.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        }
      />
    );
  }
  return (
    <Suspense fallback={<Spin />}>
      <Schematic diagram={built.diagram} onOpen={onOpen} />
    </Suspense>
  );
}
