import type { Component } from '@gdb/shared/components/components.schemas';
import { Button, Collapse, Empty, Spin, Switch, Typography } from 'antd';
import { useState } from 'react';
import { Explorer } from '../../ui/explorer/index.ts';
import { OpenedTrail } from '../../ui/trail/OpenedTrail.tsx';
import { useEditorHeight } from '../../ui/useEditorHeight.ts';
import { VersionBar } from '../../ui/versions/VersionBar.tsx';
import { ComponentForm } from './ComponentForm.tsx';
import { COMPONENT_TEXTS } from './component-texts.ts';
import { SchematicSection } from './diagram/SchematicSection.tsx';
import { HierarchyView } from './HierarchyView.tsx';
import { TestSection } from './test-run/TestSection.tsx';
import { UsagesDialog } from './UsagesDialog.tsx';
import { useComponentDocument } from './useComponentDocument.ts';
import './components.css';

/** The component editor is the window's height less this many pixels. */
const EDITOR_OFFSET = 60;

/** Components (/manage/components, route ComponentEditor): the components on the left, the open one's version bar and form. */
export function ComponentEditorPage() {
  const doc = useComponentDocument();
  const height = useEditorHeight(EDITOR_OFFSET);
  const { current } = doc;
  const [inside, setInside] = useState(true);

  return (
    <div className="gdb-component-editor" style={{ minHeight: height }}>
      <aside className="gdb-component-left" aria-label="Components">
        <Explorer
          kind="component"
          label="Components"
          selectedId={current?._id ?? null}
          onOpen={(id) => void doc.openAsked(id)}
          onCreateDocument={doc.createIn}
          height={Math.max(240, height - 120)}
        />
      </aside>
      <section className="gdb-component-centre" aria-label="Component editor">
        <OpenedTrail
          label={COMPONENT_TEXTS.opened}
          trail={doc.trail}
          openId={doc.current?._id}
          onOpen={(id) => void doc.openAsked(id)}
        />
        {doc.loading && <Spin />}
        {!current && !doc.loading && <Empty description={doc.loadError ? doc.loadError.message : COMPONENT_TEXTS.choose} />}
        {current && (
          <>
            <Typography.Title level={4}>{current.name}</Typography.Title>
            <VersionBar
              kind="component"
              path="/components"
              doc={{ ...current, read_only: current.read_only || !current.write_access }}
              dirty={doc.dirty}
              onOpen={doc.openVersion}
              onChanged={() => doc.openVersion(current._id)}
            />
            <EditorTools doc={current} onOpen={(id) => void doc.openAsked(id)} inside={inside} onInside={setInside} />
            <Collapse
              defaultActiveKey={['build']}
              items={[
                {
                  key: 'schematic',
                  label: COMPONENT_TEXTS.schematic,
                  children: <SchematicSection component={current} inside={inside} onOpen={(id) => void doc.openAsked(id)} />,
                },
                {
                  key: 'build',
                  label: COMPONENT_TEXTS.build,
                  children: (
                    <ComponentForm
                      doc={current}
                      readOnly={doc.readOnly}
                      saving={doc.saving}
                      onDirty={doc.setDirty}
                      onSave={(value) => void doc.save(value)}
                    />
                  ),
                },
                { key: 'test', label: COMPONENT_TEXTS.test, children: <TestSection component={current} /> },
              ]}
            />
          </>
        )}
      </section>
    </div>
  );
}

interface EditorToolsProps {
  doc: Component;
  inside: boolean;
  onInside: (inside: boolean) => void;
  onOpen: (id: string) => void;
}

/** 'Show inside' / 'Hide inside', 'Usages' and the dependency hierarchy of the open version. */
function EditorTools({ doc, inside, onInside, onOpen }: EditorToolsProps) {
  const [usages, setUsages] = useState(false);
  const [hierarchy, setHierarchy] = useState(false);
  return (
    <>
      <div className="gdb-component-tools">
        <Switch
          checked={inside}
          onChange={onInside}
          checkedChildren={COMPONENT_TEXTS.hideInside}
          unCheckedChildren={COMPONENT_TEXTS.showInside}
          aria-label={inside ? COMPONENT_TEXTS.hideInside : COMPONENT_TEXTS.showInside}
        />
        <Button onClick={() => setUsages(true)}>{COMPONENT_TEXTS.usages}</Button>
        <Button aria-expanded={hierarchy} onClick={() => setHierarchy((h) => !h)}>
          {COMPONENT_TEXTS.hierarchy}
        </Button>
      </div>
      {hierarchy && <HierarchyView id={doc._id} onOpen={onOpen} />}
      {usages && <UsagesDialog id={doc._id} onClose={() => setUsages(false)} />}
    </>
  );
}
