import { Breadcrumb, Button, Collapse, Empty, Spin, Typography } from 'antd';
import { Explorer } from '../../ui/explorer/index.ts';
import { useEditorHeight } from '../../ui/useEditorHeight.ts';
import { VersionBar } from '../../ui/versions/VersionBar.tsx';
import { ComponentForm } from './ComponentForm.tsx';
import { COMPONENT_TEXTS } from './component-texts.ts';
import { type ComponentDocumentState, useComponentDocument } from './useComponentDocument.ts';
import './components.css';

/** The component editor is the window's height less this many pixels. */
const EDITOR_OFFSET = 60;

/** Components (/manage/components, route ComponentEditor): the components on the left, the open one's version bar and form. */
export function ComponentEditorPage() {
  const doc = useComponentDocument();
  const height = useEditorHeight(EDITOR_OFFSET);
  const { current } = doc;

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
        <OpenedTrail doc={doc} onOpen={(id) => void doc.openAsked(id)} />
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
            <Collapse
              defaultActiveKey={['build']}
              items={[
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
              ]}
            />
          </>
        )}
      </section>
    </div>
  );
}

/** The breadcrumb of the components opened in the page; the open one is plain text, the others reopen. */
function OpenedTrail({ doc, onOpen }: { doc: ComponentDocumentState; onOpen: (id: string) => void }) {
  if (doc.trail.length === 0) return null;
  const openId = doc.current?._id;
  return (
    <nav aria-label={COMPONENT_TEXTS.opened}>
      <Breadcrumb
        items={doc.trail.map((c) => ({
          key: c.familyId,
          title:
            c.id === openId ? (
              <span aria-current="page">{c.name}</span>
            ) : (
              <Button type="link" size="small" className="gdb-component-crumb" onClick={() => onOpen(c.id)}>
                {c.name}
              </Button>
            ),
        }))}
      />
    </nav>
  );
}
