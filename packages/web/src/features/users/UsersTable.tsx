import { isRole, ROLE_LABELS } from '@gdb/shared/auth/roles';
import type { Tag } from '@gdb/shared/tags/tags.schemas';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { Button, Switch, Table } from 'antd';
import { BadgeChips } from '../../ui/tags/BadgeChip.tsx';
import { hideMeasureRows, useDomRepair } from '../../ui/useDomRepair.ts';

/** Table height of the user list (docs/product.md §6.1). */
const USER_TABLE_HEIGHT = 550;

const roleText = (u: ManagedUser) =>
  u.roles
    .map((r) => r.name)
    .map((r) => (isRole(r) ? ROLE_LABELS[r] : r))
    .join(', ');

export interface UsersTableProps {
  users: ManagedUser[];
  loading: boolean;
  tags: readonly Tag[];
  /** The signed-in user's id: their own Active switch is disabled. */
  meId: string | undefined;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onOpen: (user: ManagedUser) => void;
  /** The user whose Active switch is saving. */
  toggling: string | null;
  onToggle: (user: ManagedUser, enabled: boolean) => void;
}

/** The user list: a row opens the user dialog, the Active switch toggles the user in place. */
export function UsersTable({ users, loading, tags, meId, selected, onSelect, onOpen, toggling, onToggle }: UsersTableProps) {
  const tableFrame = useDomRepair<HTMLDivElement>(hideMeasureRows);
  return (
    <div ref={tableFrame}>
      <Table<ManagedUser>
        rowKey="_id"
        size="small"
        loading={loading}
        dataSource={users}
        pagination={false}
        scroll={{ y: USER_TABLE_HEIGHT }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => onSelect(keys.map(String)) }}
        onRow={(user) => ({ onClick: () => onOpen(user), className: 'gdb-users-row' })}
        columns={[
          { title: 'First name', dataIndex: 'firstName', key: 'firstName' },
          { title: 'Last name', dataIndex: 'lastName', key: 'lastName' },
          {
            title: 'User name',
            key: 'userName',
            // The keyboard's way in: the row opens on a click, this button on Enter or Space.
            render: (_, u) => (
              <Button
                type="link"
                size="small"
                className="gdb-user-open"
                aria-label={`Open user ${u.userName}`}
                onClick={(e) => {
                  e.stopPropagation();
                  onOpen(u);
                }}
              >
                {u.userName}
              </Button>
            ),
          },
          { title: 'Email', dataIndex: 'email', key: 'email' },
          { title: 'Service', dataIndex: 'service', key: 'service' },
          { title: 'Roles', key: 'roles', render: (_, u) => roleText(u) },
          {
            title: 'Admin tags',
            key: 'admin_tags',
            render: (_, u) => <BadgeChips ids={u.admin_tags} tags={tags} empty="" />,
          },
          {
            title: 'Last seen',
            key: 'lastSeenDate',
            render: (_, u) => (u.lastSeenDate ? new Date(u.lastSeenDate).toLocaleString() : ''),
          },
          {
            title: 'Active',
            key: 'isActive',
            width: 90,
            render: (_, u) => (
              // biome-ignore lint/a11y/noStaticElementInteractions: only keeps the click from opening the dialog
              // biome-ignore lint/a11y/useKeyWithClickEvents: the switch inside handles the keyboard
              <span onClick={(e) => e.stopPropagation()}>
                <Switch
                  size="small"
                  checked={u.isActive}
                  loading={toggling === u._id}
                  disabled={u._id === meId}
                  aria-label={`Active: ${u.userName}`}
                  onChange={(on) => onToggle(u, on)}
                />
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}
