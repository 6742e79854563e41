import { isRole, ROLE_LABELS } from '@gdb/shared/auth/roles';
import { USER_MESSAGES, userMatchesSearch } from '@gdb/shared/users/user-rules';
import { isSuperAdmin, type ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space, Switch, Table, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { reloadUserInfo, useSessionUser } from '../../ground/session/session.ts';
import { askConfirmation, useDialogCalls } from '../../ui/dialog/calls.ts';
import { tagListQuery } from '../../ui/tags/api.ts';
import { BadgeChips } from '../../ui/tags/BadgeChip.tsx';
import { hideMeasureRows, useDomRepair } from '../../ui/useDomRepair.ts';
import { useFocusReturn } from '../../ui/useFocusReturn.ts';
import { deleteUsers, toggleUsers, userKeys, usersQuery } from './api.ts';
import { UserDialog } from './UserDialog.tsx';
import { failureText, USER_CALL_FAILURES } from './user-form.ts';
import './users.css';

const GlobalBadgeListDialog = lazy(() =>
  import('../../ui/tags/GlobalBadgeListDialog.tsx').then((m) => ({ default: m.GlobalBadgeListDialog })),
);

/** Table height of the user list (docs/product.md §6.1). */
const USER_TABLE_HEIGHT = 550;

type Bulk = 'delete' | 'activate' | 'de-activate';

const roleText = (u: ManagedUser) =>
  u.roles
    .map((r) => r.name)
    .map((r) => (isRole(r) ? ROLE_LABELS[r] : r))
    .join(', ');

/** The Users screen (docs/product.md §6.1): search, create, edit, toggle and delete users, and the global badge list. */
export function UsersPage() {
  const { message } = App.useApp();
  const modal = useDialogCalls();
  const queryClient = useQueryClient();
  const me = useSessionUser();
  const users = useQuery(usersQuery());
  const tags = useQuery(tagListQuery());
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [dialog, setDialog] = useState<{ user: ManagedUser | null } | null>(null);
  const [badgeList, setBadgeList] = useState(false);
  const [toggling, setToggling] = useState<string | null>(null);
  const focus = useFocusReturn();
  const tableFrame = useDomRepair<HTMLDivElement>(hideMeasureRows);

  useEffect(() => {
    if (users.error) {
      const text = failureText(users.error, USER_CALL_FAILURES.list);
      if (text) void message.error(text);
    }
  }, [users.error, message]);

  const list = users.data ?? [];
  const roles = me?.roles.map((r) => r.name) ?? [];
  const mine = list.find((u) => u._id === me?._id);
  const actor: ScopeActor = { _id: me?._id ?? '', roles, admin_tags: mine?.admin_tags ?? [] };
  const shown = list.filter((u) => userMatchesSearch(u, search));

  const refresh = async (changed?: ManagedUser | null) => {
    await queryClient.invalidateQueries({ queryKey: userKeys.all });
    if (changed && changed._id === me?._id) await reloadUserInfo(queryClient);
  };

  const fail = (error: unknown, fallback: string) => {
    const text = failureText(error, fallback);
    if (text) void message.error(text);
  };

  const toggleOne = async (user: ManagedUser, enabled: boolean) => {
    setToggling(user._id);
    try {
      await toggleUsers([user._id], enabled);
      void message.success(enabled ? USER_MESSAGES.activated : USER_MESSAGES.deactivated);
      await refresh();
    } catch (error) {
      fail(error, USER_CALL_FAILURES.toggle);
    } finally {
      setToggling(null);
    }
  };

  const bulk = async (action: Bulk) => {
    const ids = selected;
    if (ids.length > 1 && !(await askConfirmation(modal, USER_MESSAGES.confirmBulk(action)))) {
      setSelected([]);
      return;
    }
    try {
      if (action === 'delete') {
        await deleteUsers(ids);
        void message.success(ids.length > 1 ? USER_MESSAGES.deletedMany : USER_MESSAGES.deletedOne);
      } else {
        await toggleUsers(ids, action === 'activate');
        void message.success(action === 'activate' ? USER_MESSAGES.activated : USER_MESSAGES.deactivated);
      }
      setSelected([]);
      await refresh();
    } catch (error) {
      fail(error, action === 'delete' ? USER_CALL_FAILURES.delete : USER_CALL_FAILURES.toggle);
    }
  };

  /** Opens the user dialog (null: a new user); the focus comes back to the opener when it closes. */
  const open = (user: ManagedUser | null) => {
    focus.opened();
    setDialog({ user });
  };

  return (
    <section className="gdb-users">
      <Typography.Title level={3}>Manage User</Typography.Title>
      <div className="gdb-users-toolbar">
        <Input.Search
          allowClear
          placeholder="Search"
          aria-label="Search users"
          className="gdb-users-search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Space wrap>
          {selected.length > 1 ? (
            <>
              <Button danger onClick={() => void bulk('delete')}>
                Delete
              </Button>
              <Button onClick={() => void bulk('activate')}>Active</Button>
              <Button onClick={() => void bulk('de-activate')}>De-Active</Button>
            </>
          ) : null}
          {isSuperAdmin(roles) ? (
            <Button
              onClick={() => {
                focus.opened();
                setBadgeList(true);
              }}
            >
              Manage global badge list
            </Button>
          ) : null}
          <Button type="primary" onClick={() => open(null)}>
            Create User
          </Button>
        </Space>
      </div>
      <div ref={tableFrame}>
        <Table<ManagedUser>
          rowKey="_id"
          size="small"
          loading={users.isLoading}
          dataSource={shown}
          pagination={false}
          scroll={{ y: USER_TABLE_HEIGHT }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          onRow={(user) => ({ onClick: () => open(user), className: 'gdb-users-row' })}
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
                    open(u);
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
              render: (_, u) => <BadgeChips ids={u.admin_tags} tags={tags.data ?? []} empty="" />,
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
                    disabled={u._id === me?._id}
                    aria-label={`Active: ${u.userName}`}
                    onChange={(on) => void toggleOne(u, on)}
                  />
                </span>
              ),
            },
          ]}
        />
      </div>
      {dialog ? (
        <UserDialog
          user={dialog.user}
          actor={actor}
          tags={tags.data ?? []}
          onClose={() => {
            setDialog(null);
            focus.closed();
          }}
          onChanged={(u) => void refresh(u)}
        />
      ) : null}
      {badgeList ? (
        <Suspense fallback={null}>
          <GlobalBadgeListDialog
            open={badgeList}
            onClose={() => {
              setBadgeList(false);
              focus.closed();
            }}
          />
        </Suspense>
      ) : null}
    </section>
  );
}
