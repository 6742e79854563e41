import type { Usage } from '@gdb/shared/components/hierarchy.schemas';
import { versionLabel } from '@gdb/shared/versions/versions.schemas';
import { useQuery } from '@tanstack/react-query';
import { Alert, Table } from 'antd';
import { Link } from 'react-router';
import { sdkKeys, sdkUsages } from '../../ground/calls/sdk.ts';
import { errorText } from '../../ground/request/failure.ts';
import { GenericDialog } from '../../ui/dialog/GenericDialog.tsx';
import { USAGES_TEXTS } from './sdk-texts.ts';

export interface SdkUsagesDialogProps {
  /** The SDK function version whose users are listed. */
  id: string;
  open: boolean;
  onClose: () => void;
}

/** 'Usages': the component versions that call the function, each with a link that opens it. */
export function SdkUsagesDialog({ id, open, onClose }: SdkUsagesDialogProps) {
  const usages = useQuery({
    queryKey: sdkKeys.usages(id),
    queryFn: ({ signal }) => sdkUsages(id, signal),
    enabled: open,
    retry: false,
  });
  return (
    <GenericDialog open={open} title={USAGES_TEXTS.title} width="50%" cancelText={USAGES_TEXTS.close} onCancel={onClose}>
      {usages.error ? (
        <Alert type="error" showIcon role="alert" title={errorText(usages.error)} />
      ) : (
        <Table<Usage>
          size="small"
          pagination={false}
          loading={usages.isFetching}
          rowKey={(u) => u._id}
          dataSource={usages.data ?? []}
          locale={{ emptyText: USAGES_TEXTS.none }}
          columns={[
            { key: 'name', title: USAGES_TEXTS.name, render: (_, u) => <Link to={u.url}>{u.name}</Link> },
            { key: 'version', title: USAGES_TEXTS.version, render: (_, u) => versionLabel(u) },
          ]}
        />
      )}
    </GenericDialog>
  );
}
