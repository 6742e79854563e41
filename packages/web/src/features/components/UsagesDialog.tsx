import { useQuery } from '@tanstack/react-query';
import { Alert, Button, List, Spin } from 'antd';
import { errorText } from '../../ground/request/failure.ts';
import { Dialog } from '../../ui/dialog/Dialog.tsx';
import { componentUsages } from './api.ts';
import { COMPONENT_TEXTS } from './component-texts.ts';

/** 'Usages': the components and pipelines that use the open version, each with its name, version and a link. */
export function UsagesDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const usages = useQuery({
    queryKey: ['components', 'usages', id],
    queryFn: ({ signal }) => componentUsages(id, signal),
    retry: false,
  });
  return (
    <Dialog
      open
      title={COMPONENT_TEXTS.usages}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="close" onClick={onClose}>
          {COMPONENT_TEXTS.close}
        </Button>,
      ]}
    >
      {usages.error && <Alert type="error" showIcon title={errorText(usages.error)} />}
      {usages.isPending && <Spin />}
      {usages.data && (
        <List
          size="small"
          dataSource={usages.data}
          locale={{ emptyText: COMPONENT_TEXTS.noUsages }}
          renderItem={(u) => (
            <List.Item key={u._id}>
              <a href={u.url}>
                {u.name} (v.{u.version} - {u.vLocked ? 'Prod' : 'Draft'})
              </a>{' '}
              {u.type}
            </List.Item>
          )}
        />
      )}
    </Dialog>
  );
}
