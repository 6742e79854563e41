import { Button, Collapse, Empty, Spin, Typography } from 'antd';
import { useState } from 'react';
import { Explorer } from '../../ui/explorer/index.ts';
import { OpenedTrail } from '../../ui/trail/OpenedTrail.tsx';
import { useEditorHeight } from '../../ui/useEditorHeight.ts';
import { useFocusReturn } from '../../ui/useFocusReturn.ts';
import { VersionBar } from '../../ui/versions/VersionBar.tsx';
import { SdkForm } from './SdkForm.tsx';
import { SdkTestArea } from './SdkTestArea.tsx';
import { SdkUsagesDialog } from './SdkUsagesDialog.tsx';
import { SDK_TEST_TEXTS, SDK_TEXTS } from './sdk-texts.ts';
import { useSdkDocument } from './useSdkDocument.ts';
import { useVulnerabilities, VulnerabilityReport } from './VulnerabilityReport.tsx';
import './sdk.css';

/** The SDK editor is the window's height less this many pixels. */
const EDITOR_OFFSET = 60;

/** Sdk (/manage/sdk, super-admin): the SDK functions on the left, the open one's version bar, form, report and test. */
export function SdkEditorPage() {
  const doc = useSdkDocument();
  const height = useEditorHeight(EDITOR_OFFSET);
  const { current } = doc;

  return (
    <div className="gdb-sdk-editor" style={{ minHeight: height }}>
      <aside className="gdb-sdk-left" aria-label={SDK_TEXTS.explorer}>
        <Explorer
          kind="sdk"
          label={SDK_TEXTS.explorer}
          selectedId={current?._id ?? null}
          onOpen={(id) => void doc.openAsked(id)}
          onCreateDocument={doc.createIn}
          height={Math.max(240, height - 120)}
        />
      </aside>
      <section className="gdb-sdk-centre" aria-label="SDK editor">
        <OpenedTrail label={SDK_TEXTS.opened} trail={doc.trail} openId={current?._id} onOpen={(id) => void doc.openAsked(id)} />
        {doc.loading && <Spin />}
        {!current && !doc.loading && <Empty description={doc.loadError ? doc.loadError.message : SDK_TEXTS.choose} />}
        {current && (
          <>
            <Typography.Title level={4}>{current.functionName}</Typography.Title>
            <VersionBar
              kind="sdk"
              path="/sdk"
              doc={{ ...current, read_only: current.read_only || !current.write_access }}
              dirty={doc.dirty}
              onOpen={doc.openVersion}
              onChanged={() => doc.openVersion(current._id)}
            />
            <OpenSdk doc={doc} current={current} />
          </>
        )}
      </section>
    </div>
  );
}

type DocState = ReturnType<typeof useSdkDocument>;

/** The open version's sections: the form with its checks, the vulnerability report and the test area. */
function OpenSdk({ doc, current }: { doc: DocState; current: NonNullable<DocState['current']> }) {
  const vulnerabilities = useVulnerabilities(current._id);
  const [usages, setUsages] = useState(false);
  const focus = useFocusReturn();
  const actions = (
    <>
      <Button loading={vulnerabilities.checking} onClick={() => void vulnerabilities.recheck()}>
        {SDK_TEXTS.recheck}
      </Button>
      <Button
        onClick={() => {
          focus.opened();
          setUsages(true);
        }}
      >
        {SDK_TEXTS.usages}
      </Button>
    </>
  );
  return (
    <>
      <VulnerabilityReport state={vulnerabilities} />
      <Collapse
        defaultActiveKey={['build', 'test']}
        items={[
          {
            key: 'build',
            label: SDK_TEXTS.build,
            children: (
              <SdkForm
                doc={current}
                readOnly={doc.readOnly}
                saving={doc.saving}
                onDirty={doc.setDirty}
                onSave={(value) => void doc.save(value)}
                actions={actions}
              />
            ),
          },
          { key: 'test', label: SDK_TEST_TEXTS.section, children: <SdkTestArea key={current._id} doc={current} /> },
        ]}
      />
      <SdkUsagesDialog
        id={current._id}
        open={usages}
        onClose={() => {
          setUsages(false);
          focus.closed();
        }}
      />
    </>
  );
}
