import { Table, type TableColumnsType, Typography } from 'antd';

/** One server instance's consumer of a listener: its state and its last error. */
export interface HostState {
  hostname: string;
  state: string;
  last_error?: string | null | undefined;
}

const columns: TableColumnsType<HostState> = [
  { title: 'Hostname', dataIndex: 'hostname', key: 'hostname' },
  { title: 'State', dataIndex: 'state', key: 'state' },
  {
    title: 'Last Error',
    key: 'error',
    render: (_: unknown, h) => (h.last_error ? <Typography.Text type="danger">{h.last_error}</Typography.Text> : '-'),
  },
];

/** The per-server table of a listener (Hostname, State, Last Error). */
export function HostStates({ hosts, label }: { hosts: readonly HostState[]; label: string }) {
  return (
    <section className="gdb-host-states" aria-label={label}>
      <Table<HostState> size="small" rowKey="hostname" columns={columns} dataSource={[...hosts]} pagination={false} />
    </section>
  );
}
