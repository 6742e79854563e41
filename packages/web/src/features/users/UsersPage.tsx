import { userMatchesSearch } from '@gdb/shared/users/user-rules';
import { isSuperAdmin, type ScopeActor } from '@gdb/shared/users/user-scope';
import type { ManagedUser } from '@gdb/shared/users/users.schemas';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Input, Space, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSessionUser } from '../../ground/session/session.ts';
import { tagListQuery } from '../../ui/tags/api.ts';
import { useFocusReturn } from '../../ui/useFocusReturn.ts';
import { usersQuery } from './api.ts';
import { UserDialog } from './UserDialog.tsx';
import { UsersTable } from './UsersTable.tsx';
import { failureText, USER_CALL_FAILURES } from './user-form.ts';
import { useUserActions } from './useUserActions.ts';
import './users.css';

const GlobalBadgeListDialog = lazy(() =>
  import('../../ui/tags/GlobalBadgeListDialog.tsx').then((m) => ({ default: m.GlobalBadgeListDialog })),
);

/** The Users screen (docs/product.md §6.1): search, create, edit, toggle and delete users, and the global badge list. */
export function UsersPage() {
  const { message } = App.useApp();
  const me = useSessionUser();
  const users = useQuery(usersQuery());
  const tags = useQuery(tagListQuery());
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<{ user: ManagedUser | null } | null>(null);
  const [badgeList, setBadgeList] = useState(false);
  const focus = useFocusReturn();
  const actions = useUserActions(me?._id);
  const { selected, bulk } = actions;

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
      <UsersTable
        users={list.filter((u) => userMatchesSearch(u, search))}
        loading={users.isLoading}
        tags={tags.data ?? []}
        meId={me?._id}
        selected={selected}
        onSelect={actions.setSelected}
        onOpen={open}
        toggling={actions.toggling}
        onToggle={(u, on) => void actions.toggleOne(u, on)}
      />
      {dialog ? (
        <UserDialog
          user={dialog.user}
          actor={actor}
          tags={tags.data ?? []}
          onClose={() => {
            setDialog(null);
            focus.closed();
          }}
          onChanged={(u) => void actions.refresh(u)}
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
